import Depot
import Foundation
import Swinject

// request: a server's request. A lifetime scope of the app's container, then a handler made of
// five objects: the handler (unique), a unit of work (unique), the request's context (one per
// scope), and two app-wide services (singletons).
final class AppConfig: Sendable {}
final class AppClient: Sendable {}
final class RequestScope: Sendable {}
final class UnitOfWork: Sendable {}
final class RequestHandler: Sendable {
    let config: AppConfig
    let client: AppClient
    let scope: RequestScope
    let work: UnitOfWork
    init(_ config: AppConfig, _ client: AppClient, _ scope: RequestScope, _ work: UnitOfWork) {
        (self.config, self.client, self.scope, self.work) = (config, client, scope, work)
    }
}

extension Depot.Container {
    var appConfig: Factory<AppConfig> { self { AppConfig() }.singleton }
    var appClient: Factory<AppClient> { self { AppClient() }.singleton }
    var requestScope: Factory<RequestScope> { self { RequestScope() }.cached }
    var unitOfWork: Factory<UnitOfWork> { self { UnitOfWork() } }
    var requestHandler: Factory<RequestHandler> {
        self {
            RequestHandler(
                self.appConfig(), self.appClient(), self.requestScope(), self.unitOfWork())
        }
    }
}

extension Scenarios {
    static var request: [Subject] {
        onEachThreadCount("request", "Depot", note: "newLifetimeScope() and the handler") {
            depotRequests(resetsDependents: false)
        }
            + onEachThreadCount(
                "request", "Depot+resetsDependents",
                note: "the same, manager.resetsDependents on in the root (the scopes take it)"
            ) { depotRequests(resetsDependents: true) }
            + onEachThreadCount(
                "request", "Swinject",
                note: "a child container per request, RequestScope registered in it, synchronized"
            ) {
                let swinject = SwinjectContainer()
                swinject.register(AppConfig.self) { _ in AppConfig() }.inObjectScope(.container)
                swinject.register(AppClient.self) { _ in AppClient() }.inObjectScope(.container)
                swinject.register(UnitOfWork.self) { _ in UnitOfWork() }.inObjectScope(.transient)
                swinject.register(RequestHandler.self) { r in
                    RequestHandler(
                        r.resolve(AppConfig.self)!, r.resolve(AppClient.self)!,
                        r.resolve(RequestScope.self)!, r.resolve(UnitOfWork.self)!)
                }.inObjectScope(.transient)
                let parent = SendableSwinject(container: swinject)
                return { n in
                    for _ in 0..<n {
                        // A child shares its parent's lock and resolution depth: unsynchronized,
                        // requests on several threads corrupt the depth and Swinject stops with
                        // "Infinite recursive call" (seen at 16 threads).
                        let child = SwinjectContainer(parent: parent.container)
                        child.register(RequestScope.self) { _ in RequestScope() }
                            .inObjectScope(.container)
                        blackHole(child.synchronize().resolve(RequestHandler.self)!)
                    }
                }
            }
            + onEachThreadCount(
                "request", "baseline-direct", note: "the five objects built by hand"
            ) {
                { n in
                    for _ in 0..<n {
                        blackHole(
                            RequestHandler(AppConfig(), AppClient(), RequestScope(), UnitOfWork()))
                    }
                }
            }
            + onEachThreadCount(
                "request", "baseline-shared",
                note: "built by hand around the same two app-wide objects"
            ) {
                // What every request shares, as Depot's singletons are.
                let sharedConfig = AppConfig()
                let sharedClient = AppClient()
                return { n in
                    for _ in 0..<n {
                        blackHole(
                            RequestHandler(sharedConfig, sharedClient, RequestScope(), UnitOfWork())
                        )
                    }
                }
            }
    }

    /// Depot's request loop: a lifetime scope of one root container and its handler, per
    /// request.
    private static func depotRequests(resetsDependents: Bool) -> Subject.Loop {
        let root = Depot.Container()
        root.manager.resetsDependents = resetsDependents
        _ = root.requestHandler()
        return { n in
            for _ in 0..<n { blackHole(root.newLifetimeScope().requestHandler()) }
        }
    }
}
