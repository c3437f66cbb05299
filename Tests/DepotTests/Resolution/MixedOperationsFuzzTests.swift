import Depot
import Foundation
import Testing

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

/// Threads run random mixes of resolves, registrations, resets, lifetime scopes, children and
/// `push()`/`pop()` on one container. Whatever the interleaving: nothing stops or deadlocks, a
/// graph-scoped part is one instance per resolution, an instance is disposed at most once, and
/// once everything is let go, every instance is gone.
@Suite(.serialized) struct MixedOperationsFuzzTests {
    static let threads = 8
    static let operations = 1_500

    @Test(arguments: [1, 2, 3])
    func randomMixesKeepEveryInvariant(seed: UInt64) async throws {
        let ledger = FuzzLedger()
        FuzzContainer.ledger = ledger
        let failures = Locked<[String]>([])
        await Scope.withIsolatedSingletons {
            let container = FuzzContainer()
            _ = runOnThreads(Self.threads) { index in
                var random = FuzzRandom(state: seed &* 1_000 &+ UInt64(index))
                for step in 0..<Self.operations {
                    if let failure = Self.randomOperation(on: container, using: &random) {
                        failures.withLock {
                            $0.append("seed \(seed), thread \(index), step \(step): \(failure)")
                        }
                    }
                }
                return 0
            }
            _ = await container.shutdown()
            _ = await Scope.singleton.shutdown()
            _ = await FuzzContainer.session.shutdown()
        }
        // Instances dropped by a reset are disposed in tasks of their own: wait for them.
        let deadline = Date().addingTimeInterval(20)
        while ledger.live > 0, Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(failures.current.isEmpty, "\(failures.current.prefix(5))")
        #expect(ledger.made > Self.threads * Self.operations / 4)
        #expect(ledger.disposedCount > 0)
        let disposedTwice = ledger.disposedTwice
        #expect(disposedTwice.count == 0, "disposed twice: \(disposedTwice.prefix(5))...")
        #expect(ledger.live == 0, "\(ledger.live) of \(ledger.made) instances still alive")
    }

    /// Runs one random operation on `container`; returns what went wrong, if anything.
    static func randomOperation(on container: FuzzContainer, using random: inout FuzzRandom)
        -> String?
    {
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<12: _ = container.cached()
        case 12..<20: _ = container.expiring()
        case 20..<28: _ = container.shared()
        case 28..<34: _ = container.singleton()
        case 34..<38: _ = container.weakSingleton()
        case 38..<44: _ = container.session()
        case 44..<50: _ = container.perParameter(Int.random(in: 0..<4, using: &random))
        case 50..<60:
            let built = container.built()
            guard built.parts[0] === built.parts[1] else {
                return "a graph-scoped part was made twice in one resolution"
            }
        case 60..<64: _ = container.lazyHolder().part.value
        case 64..<68:
            // Registered closures capture the ledger, not the container they are kept in.
            let ledger = container.ledger
            container.cached.register { FuzzThing(ledger) }
        case 68..<71: container.manager.reset(scope: .cached)
        case 71..<73: container.manager.reset(options: .scope)
        case 73..<75: FuzzContainer.session.reset()
        case 75..<77: Scope.singleton.reset()
        case 77..<87:
            let scope = container.newLifetimeScope()
            let first = scope.cached()
            _ = scope.built()
            _ = scope.session()
            // Nothing else reaches this scope's caches: its instance stays.
            guard first === scope.cached() else {
                return "a lifetime scope's cached instance changed with nothing resetting it"
            }
        case 87..<93:
            let child = container.makeChild()
            child.shared.register { [ledger = child.ledger] in FuzzThing(ledger) }
            _ = child.built()
            _ = child.shared()
        case 93..<95:
            container.manager.push()
            container.expiring.register { [ledger = container.ledger] in FuzzThing(ledger) }
            _ = container.expiring()
            container.manager.pop()
        default:
            _ = container.cached.reset()
        }
        return nil
    }
}
