import Depot
import Foundation
import Hummingbird
import NotesServer

// The notes API: a module of its own, which adds its routes to the service by contributing
// them to `routeGroups`.
extension Container {
    /// This module's routes: `POST /notes`, `GET /notes`, `GET /notes/:id`.
    public var notesRoutes: Factory<any RouteGroup> { self { NotesRoutes() } }

    /// Contributes this module's routes to the service, first.
    public func registerNotesRoutes() {
        contribute(\.notesRoutes, to: \.routeGroups, order: 0)
    }
}

struct NotesRoutes: RouteGroup {
    func addRoutes(to router: Router<BasicRequestContext>, root: Container) {
        router.post("notes") { request, context in
            try await NotesHandler().create(request, context: context)
        }
        router.get("notes") { _, _ in try await NotesHandler().list() }
        router.get("notes/:id") { _, context in
            try await NotesHandler().read(id: context.parameters.require("id", as: Int.self))
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
        let note = try await Container.shared.notesStore().insert(text)
        return EditedResponse(status: .created, response: note)
    }

    func read(id: Int) async throws -> Note {
        guard let note = try await Container.shared.notesStore().note(id: id) else {
            throw HTTPError(.notFound, message: "no note with id \(id)")
        }
        return note
    }

    func list() async throws -> [Note] {
        try await Container.shared.notesStore().all()
    }
}
