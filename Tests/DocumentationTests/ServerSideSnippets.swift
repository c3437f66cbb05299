import Depot
import DepotTesting
import Testing

// The snippets of ServerSideSwift.md.

struct Note: Sendable, Equatable {
    let id: Int
    let text: String
}

/// The app-wide store: opened once, closed at shutdown.
actor NotesStore {
    private var notes: [Int: Note] = [:]
    private(set) var isOpen = true

    static func open() async throws -> NotesStore { NotesStore() }

    func insert(_ text: String) -> Note {
        let note = Note(id: notes.count + 1, text: text)
        notes[note.id] = note
        return note
    }

    func close() { isOpen = false }
}

/// What one request knows about itself.
final class RequestContext: Sendable {
    let id = Int.random(in: 1...1_000_000)
}

extension Container {
    var requestContext: Factory<RequestContext> { self { RequestContext() }.cached }
    var notesStore: AsyncFactory<NotesStore> {
        self { try await NotesStore.open() }.singleton.onDispose { await $0.close() }
    }
}

final class NotesHandler {
    @Injected(\.requestContext) var context

    func create(_ text: String) async throws -> (Note, requestID: Int) {
        let store = try await Container.shared.notesStore()
        return (await store.insert(text), context.id)
    }
}

func handle(_ text: String) async throws -> (Note, requestID: Int) {
    try await Container.shared.withLifetimeScope { _ in
        try await NotesHandler().create(text)
    }
}

@Suite(.container) struct ServerSideSnippets {
    @Test func eachRequestGetsItsOwnScope() async throws {
        let (first, firstRequest) = try await handle("milk")
        let (second, secondRequest) = try await handle("eggs")
        #expect(first.id == 1)
        #expect(second.id == 2)
        #expect(firstRequest != secondRequest)
    }

    @Test func startAndStop() async throws {
        try await Container.shared.warmUp(\.notesStore)
        let store = try Container.shared.notesStore.warmed()
        await Scope.singleton.shutdown()
        await Container.shared.shutdown()
        #expect(await !store.isOpen)
    }

    @Test func overridesReachEveryRequest() async throws {
        let fixed = RequestContext()
        Container.shared.requestContext.register { fixed }
        let (_, a) = try await handle("a")
        let (_, b) = try await handle("b")
        #expect(a == fixed.id)
        #expect(b == fixed.id)
    }
}
