import Depot
import Hummingbird
import NotesServer

// The service's counters over HTTP: a module of its own, which adds its route to the service
// by contributing it to `routeGroups`.
extension Container {
    /// This module's route: `GET /stats`.
    public var statsRoutes: Factory<any RouteGroup> { self { StatsRoutes() } }

    /// Contributes this module's route to the service, after the notes API's.
    public func registerStatsRoutes() {
        contribute(\.statsRoutes, to: \.routeGroups, order: 10)
    }
}

struct StatsRoutes: RouteGroup {
    func addRoutes(to router: Router<BasicRequestContext>, root: Container) {
        router.get("stats") { _, _ in root.serverStats().current }
    }
}
