import Depot
import Dispatch
import Foundation
import Testing

/// A container whose instances record their creation and disposal.
final class TeardownContainer: ManagedContainer {
    let manager = ContainerManager()
    /// The ids of the instances made, and of those disposed, in order.
    let made = Locked<[Int]>([])
    let disposed = Locked<[Int]>([])

    /// Notes a new instance and returns its id.
    func noteMade() -> Int {
        made.withLock { made in
            made.append(made.count + 1)
            return made.count
        }
    }
}

extension TeardownContainer {
    var slowExpiring: Factory<Thing> {
        self {
            usleep(200)
            return Thing(id: self.noteMade())
        }.cached.timeToLive(10)
    }
    var slowExpiringSingleton: Factory<Thing> {
        self {
            usleep(200)
            return Thing(id: self.noteMade())
        }.singleton.timeToLive(10)
    }
    var disposable: Factory<Thing> {
        self { Thing(id: self.noteMade()) }.cached.onDispose { thing in
            self.disposed.withLock { $0.append(thing.id) }
        }
    }
}

/// `timeToLive` and `shutdown()` while many threads resolve: an expired instance is replaced
/// exactly once, and every kept instance is disposed exactly once.
@Suite struct ExpiryAndTeardownStressTests {
    static let threads = 32
    static let rounds = 10

    /// Each round, every thread asks at once for an instance the clock has just made too old:
    /// one replacement is made, and every thread gets it.
    @Test(arguments: ["cached", "singleton"])
    func anExpiredInstanceIsReplacedOnceUnderContention(scope: String) {
        Scope.withIsolatedSingletons {
            let container = TeardownContainer()
            let now = Locked(0.0)
            container.manager.clock = ContainerManager.Clock { now.current }
            let factory =
                scope == "cached" ? container.slowExpiring : container.slowExpiringSingleton
            var previous: Thing?
            for round in 1...Self.rounds {
                let results = runOnThreads(Self.threads) { _ in factory() }
                #expect(container.made.current.count == round)
                #expect(Set(results.map(ObjectIdentifier.init)).count == 1)
                #expect(results[0] !== previous)
                previous = results[0]
                // Within its time to live, the instance stays; at its end, it is replaced.
                now.withLock { $0 += 9.5 }
                #expect(factory() === previous)
                now.withLock { $0 += 0.5 }
            }
        }
    }

    /// Threads resolve a factory with `onDispose` while the container shuts down again and
    /// again: each instance the container kept is disposed once, by one of the shutdowns. (One
    /// whose creation a shutdown cancelled was handed out but never kept, nor disposed.)
    @Test func shutdownsWhileThreadsResolveDisposeEachInstanceOnce() async {
        let container = TeardownContainer()
        let resolving = DispatchGroup()
        for _ in 0..<4 {
            resolving.enter()
            startThread {
                for _ in 0..<2_000 { _ = container.disposable() }
                resolving.leave()
            }
        }
        var errors: [DisposalError] = []
        for _ in 0..<50 {
            errors += await container.shutdown()
            await Task.yield()
        }
        await withCheckedContinuation { done in
            resolving.notify(queue: .global()) { done.resume() }
        }
        let last = container.disposable()
        errors += await container.shutdown()
        #expect(errors.isEmpty)
        let disposed = container.disposed.current
        #expect(disposed.count == Set(disposed).count)
        #expect(Set(disposed).isSubset(of: container.made.current))
        #expect(disposed.last == last.id)
    }
}
