import Depot
import Foundation

/// Every instance the fuzz makes: how many are alive, and how often each was disposed.
final class FuzzLedger: Sendable {
    private let state = Locked((made: 0, live: 0, disposals: [Int: Int]()))

    func noteMade() -> Int {
        state.withLock { state in
            state.made += 1
            state.live += 1
            return state.made
        }
    }

    func noteGone() { state.withLock { $0.live -= 1 } }
    func noteDisposed(_ id: Int) { state.withLock { $0.disposals[id, default: 0] += 1 } }

    var made: Int { state.current.made }
    var live: Int { state.current.live }
    /// The instances disposed more than once.
    var disposedTwice: [Int] { state.current.disposals.filter { $0.value > 1 }.map(\.key) }
    var disposedCount: Int { state.current.disposals.count }
}

/// An instance the ledger counts from its making to its deinit.
final class FuzzThing: Sendable {
    let id: Int
    let ledger: FuzzLedger
    let parts: [FuzzThing]

    init(_ ledger: FuzzLedger, parts: [FuzzThing] = []) {
        (self.ledger, self.parts, id) = (ledger, parts, ledger.noteMade())
    }

    deinit { ledger.noteGone() }

    /// The `onDispose` of every factory: it captures nothing, so that no kept instance's
    /// disposal holds its container (which would then hold itself).
    @Sendable static func dispose(_ thing: FuzzThing) { thing.ledger.noteDisposed(thing.id) }
}

/// A container whose factories cover every scope, each instance counted by `ledger`.
final class FuzzContainer: ScopingContainer {
    /// The ledger of the fuzz running now, for the containers `newLifetimeScope()` and
    /// `makeChild()` make with `init()`. Safe unguarded: one fuzz runs at a time (the suite is
    /// serialized), and it sets this before starting the threads that read it.
    nonisolated(unsafe) static var ledger = FuzzLedger()
    static let session = Scope.Custom(name: "fuzz session")
    let manager = ContainerManager()
    let ledger = FuzzContainer.ledger

    init() {}

    func thing(_ parts: [FuzzThing] = []) -> FuzzThing { FuzzThing(ledger, parts: parts) }
}

extension FuzzContainer {
    var cached: Factory<FuzzThing> { self { self.thing() }.cached.onDispose(FuzzThing.dispose) }
    var expiring: Factory<FuzzThing> {
        self { self.thing() }.cached.timeToLive(0.000_2).onDispose(FuzzThing.dispose)
    }
    var shared: Factory<FuzzThing> { self { self.thing() }.shared }
    var singleton: Factory<FuzzThing> {
        self { self.thing() }.singleton.onDispose(FuzzThing.dispose)
    }
    var weakSingleton: Factory<FuzzThing> { self { self.thing() }.weakSingleton }
    var session: Factory<FuzzThing> {
        self { self.thing() }.scope(Self.session).onDispose(FuzzThing.dispose)
    }
    var perParameter: ParameterFactory<Int, FuzzThing> {
        self { _ in self.thing() }.cached.scopeOnParameters.onDispose(FuzzThing.dispose)
    }
    var graphPart: Factory<FuzzThing> { self { self.thing() }.graph }
    /// Built from a graph-scoped part twice, a cached instance and a singleton.
    var built: Factory<FuzzThing> {
        self {
            self.thing([self.graphPart(), self.graphPart(), self.cached(), self.singleton()])
        }
    }
    var lazyHolder: Factory<FuzzHolder> { self { FuzzHolder(self.cached.lazy) } }
}

extension FuzzContainer {
    /// Each async factory yields or sleeps a little while it creates, so that resets,
    /// registrations and cancellations land in the middle of creations.
    var asyncCached: AsyncFactory<FuzzThing> {
        self {
            try await Task.sleep(for: .microseconds(50))
            return self.thing()
        }.cached.onDispose(FuzzThing.dispose)
    }
    var asyncSingleton: AsyncFactory<FuzzThing> {
        self {
            await Task.yield()
            return self.thing()
        }.singleton.onDispose(FuzzThing.dispose)
    }
    var asyncExpiring: AsyncFactory<FuzzThing> {
        self {
            await Task.yield()
            return self.thing()
        }.cached.timeToLive(0.000_2).onDispose(FuzzThing.dispose)
    }
    /// Built across awaits and a child task from the graph-scoped part, which must stay one.
    var asyncBuilt: AsyncFactory<FuzzThing> {
        self {
            let first = self.graphPart()
            async let cached = self.asyncCached()
            let singleton = try await self.asyncSingleton()
            return self.thing([first, self.graphPart(), try await cached, singleton])
        }
    }
}

final class FuzzHolder: @unchecked Sendable {
    let part: Lazy<FuzzThing>
    init(_ part: Lazy<FuzzThing>) { self.part = part }
}

/// SplitMix64: a generator seeded per thread, so that a failing run can be repeated.
struct FuzzRandom: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
