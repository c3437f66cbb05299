import Depot
import HTTPTypes
import Hummingbird
import ServiceLifecycle

extension Note: ResponseEncodable {}
extension ServerStats.Counts: ResponseEncodable {}

/// Builds the notes service on `root`: the database opened before the first request, a
/// lifetime scope of `root` per request, the routes the modules contributed to
/// `routeGroups`, and the container's teardown when the server stops.
public func buildApplication(
    root: Container = .shared, host: String = "127.0.0.1", port: Int = 8080
) async throws -> some ApplicationProtocol {
    // A database that cannot open fails the start, not a request.
    try await root.warmUp(\.database)
    let router = Router()
    router.add(middleware: RequestScopeMiddleware(root: root))
    // The routes are the modules' contributions: this module lists none of them.
    for group in root.routeGroups() {
        group.addRoutes(to: router, root: root)
    }
    return Application(
        router: router,
        configuration: .init(address: .hostname(host, port: port)),
        services: [ContainerTeardown(root: root)])
}

/// Runs every request in a lifetime scope of `root`, bound as `Container.shared`: its `.cached`
/// instances are the request's, and are disposed when the response is ready.
struct RequestScopeMiddleware<Context: RequestContext>: RouterMiddleware {
    let root: Container

    func handle(
        _ request: Request, context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        try await root.withLifetimeScope { _ in
            var response = try await next(request, context)
            // The request's identity, as the handler and the unit of work each resolved it.
            response.headers[.requestID] = Container.shared.requestInfo().id
            response.headers[.unitOfWorkRequestID] = Container.shared.unitOfWork().request.id
            return response
        }
    }
}

/// Routes that a module adds to the service: each module contributes its own to
/// `Container.routeGroups`.
public protocol RouteGroup: Sendable {
    /// Adds the module's routes to `router`; `root` is the service's container.
    func addRoutes(to router: Router<BasicRequestContext>, root: Container)
}

extension Container {
    /// The route groups the modules contributed, in their order.
    public var routeGroups: Factory<[any RouteGroup]> { contributions() }
}

/// Tears the container down once the server has stopped taking requests: the singletons (the
/// database closes) and what the root container keeps.
struct ContainerTeardown: Service {
    let root: Container

    func run() async throws {
        // Returns when a graceful shutdown starts; a cancellation tears down all the same.
        try? await gracefulShutdown()
        // In a task of its own: this one may be cancelled, and closing the database must not
        // be. The task inherits the task-locals, so the same singletons.
        let root = root
        await Task {
            await Scope.singleton.shutdown()
            await root.shutdown()
        }.value
    }
}

extension HTTPField.Name {
    /// The request's id, as `requestInfo` gave it to the handler.
    public static let requestID = Self("X-Request-ID")!
    /// The request id the request's unit of work holds: the same within one request.
    public static let unitOfWorkRequestID = Self("X-Unit-Of-Work-Request-ID")!
}
