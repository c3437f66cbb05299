import Depot
import Foundation

// The service's dependencies: app-wide singletons (the database, the counters), and per-request
// instances (`.cached` in each request's lifetime scope).
extension Container {
    /// Where the database lives: in the system's temporary directory, never in the working
    /// directory (the repository, run from it); tests register a file of their own. Cached, as
    /// the database keeps it.
    public var databasePath: Factory<String> {
        self {
            FileManager.default.temporaryDirectory.appendingPathComponent("depot-notes.sqlite").path
        }.cached
    }

    /// What the service did, for `GET /stats` and the tests.
    public var serverStats: Factory<ServerStats> { self { ServerStats() }.singleton }

    /// The database: opened once, by an async singleton, and closed when the server stops.
    public var database: AsyncFactory<NotesDatabase> {
        self { try await NotesDatabase.open(path: self.databasePath(), stats: self.serverStats()) }
            .singleton
            .onDispose { try await $0.close() }
    }

    /// The notes as the routes read and write them: an alias of `database`, so the one
    /// database singleton, behind a type that a module can wrap (see `StoreTiming`).
    public var notesStore: AsyncFactory<any NotesStore> { alias(\.database) { $0 } }

    /// The request's identity: one per request scope.
    public var requestInfo: Factory<RequestInfo> { self { RequestInfo() }.cached }

    /// The request's unit of work: one per request scope, finished when the request ends.
    public var unitOfWork: Factory<UnitOfWork> {
        self { UnitOfWork(request: self.requestInfo(), stats: self.serverStats()) }
            .cached
            .onDispose { $0.finish() }
    }
}

/// One request's identity.
public final class RequestInfo: Sendable {
    public let id = UUID().uuidString
    public init() {}
}

/// What one request does, counted when it starts and when its scope ends.
public final class UnitOfWork: Sendable {
    public let request: RequestInfo
    private let stats: ServerStats

    public init(request: RequestInfo, stats: ServerStats) {
        self.request = request
        self.stats = stats
        stats.count(\.unitsStarted)
    }

    func finish() { stats.count(\.unitsFinished) }
}

/// Counters, safe from any thread.
public final class ServerStats: Sendable {
    public struct Counts: Codable, Sendable, Equatable {
        public var databaseOpens = 0
        public var databaseCloses = 0
        public var unitsStarted = 0
        public var unitsFinished = 0
    }

    private let lock = NSLock()
    nonisolated(unsafe) private var counts = Counts()

    public init() {}

    /// The counts now.
    public var current: Counts { lock.withLock { counts } }

    func count(_ counter: WritableKeyPath<Counts, Int>) {
        lock.withLock { counts[keyPath: counter] += 1 }
    }
}
