import Depot
import Foundation
import NotesServer

// Times every call to the notes store: a module of its own, which wraps the store the core
// declares in a decorator, whoever provides it (the database, or a test's mock).
extension Container {
    /// How many calls the store took and how long they took, for the process.
    public var storeTimings: Factory<StoreTimings> { self { StoreTimings() }.singleton }

    /// Wraps the notes store in one that times each call.
    public func registerStoreTiming() {
        decorate(\.notesStore, name: "store-timing") { TimedNotesStore(inner: $0) }
    }
}

/// The store's calls, counted and timed by operation; safe from any thread.
public final class StoreTimings: Sendable {
    public struct Timing: Sendable, Equatable {
        public var calls = 0
        public var seconds = 0.0
    }

    private let lock = NSLock()
    nonisolated(unsafe) private var timings: [String: Timing] = [:]

    public init() {}

    /// The timings now, by operation: `insert`, `note`, `all`.
    public var current: [String: Timing] { lock.withLock { timings } }

    func record(_ operation: String, since start: ContinuousClock.Instant) {
        let seconds = (ContinuousClock.now - start) / .seconds(1)
        lock.withLock {
            timings[operation, default: Timing()].calls += 1
            timings[operation, default: Timing()].seconds += seconds
        }
    }
}

/// A notes store that times each call to the store it wraps.
struct TimedNotesStore: NotesStore {
    let inner: any NotesStore
    @Injected(\.storeTimings) var timings

    func insert(_ text: String) async throws -> Note {
        try await timed("insert") { try await inner.insert(text) }
    }

    func note(id: Int) async throws -> Note? {
        try await timed("note") { try await inner.note(id: id) }
    }

    func all() async throws -> [Note] {
        try await timed("all") { try await inner.all() }
    }

    private func timed<Result>(
        _ operation: String, _ call: () async throws -> Result
    ) async rethrows -> Result {
        let start = ContinuousClock.now
        defer { timings.record(operation, since: start) }
        return try await call()
    }
}
