import Depot
import HTTPTypes
import Hummingbird
import ServiceLifecycle

extension Note: ResponseEncodable {}
extension ServerStats.Counts: ResponseEncodable {}

/// Builds the notes service on `root`: the database opened before the first request, a
/// lifetime scope of `root` per request, the routes, and the container's teardown when the
/// server stops.
public func buildApplication(
    root: Container = .shared, host: String = "127.0.0.1", port: Int = 8080
) async throws -> some ApplicationProtocol {
    // A database that cannot open fails the start, not a request.
    try await root.warmUp(\.database)
    let router = Router()
    router.add(middleware: RequestScopeMiddleware(root: root))
    router.post("notes") { request, context in
        try await NotesHandler().create(request, context: context)
    }
    router.get("notes") { _, _ in try await NotesHandler().list() }
    router.get("notes/:id") { _, context in
        try await NotesHandler().read(id: context.parameters.require("id", as: Int.self))
    }
    router.get("stats") { _, _ in root.serverStats().current }
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

/// The routes' work, with dependencies from the request's scope.
struct NotesHandler {
    @Injected(\.unitOfWork) var unitOfWork

    struct NewNote: Decodable {
        let text: String
    }

    /// The largest request body `create` reads: a note's 1,000 characters as JSON, with room.
    static let maximumBodySize = 64 * 1024

    func create(_ request: Request, context: some RequestContext) async throws
        -> EditedResponse<Note>
    {
        var request = request
        do {
            _ = try await request.collectBody(upTo: Self.maximumBodySize)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            throw HTTPError(
                .contentTooLarge,
                message: "a request body may have at most \(Self.maximumBodySize) bytes")
        }
        let input: NewNote
        do {
            input = try await request.decode(as: NewNote.self, context: context)
        } catch {
            throw HTTPError(.badRequest, message: #"expected JSON like {"text": "buy milk"}"#)
        }
        let text = input.text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...1_000).contains(text.count) else {
            throw HTTPError(.badRequest, message: "a note's text must have 1 to 1000 characters")
        }
        let note = try await Container.shared.database().insert(text)
        return EditedResponse(status: .created, response: note)
    }

    func read(id: Int) async throws -> Note {
        guard let note = try await Container.shared.database().note(id: id) else {
            throw HTTPError(.notFound, message: "no note with id \(id)")
        }
        return note
    }

    func list() async throws -> [Note] {
        try await Container.shared.database().all()
    }
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
