import Depot
import Foundation
import Testing

/// A factory resolved again and again (every resolve after the first a hit) must still follow
/// whatever it depends on: these tests resolve each factory a few times first, then change a
/// registration, a setting, a reset or the container's lifetime, on this thread or another.
@Suite struct RepeatedHitTests {
    /// Resolves `factory` three times, so that the last ones are hits.
    private func resolvedThrice<T: AnyObject>(_ factory: Factory<T>) -> T {
        let first = factory()
        #expect(factory() === first)
        #expect(factory() === first)
        return first
    }

    @Test func aResetReachesARepeatedHitAndReleasesIt() {
        let container = Container()
        weak var released: Thing?
        do {
            let first = resolvedThrice(container.cachedThing)
            released = first
            container.manager.reset(scope: .cached)
            #expect(container.cachedThing() !== first)
        }
        #expect(released == nil)
    }

    /// Runs `body` on a thread that stays alive (with whatever it keeps) until the returned
    /// closure is called, after `body` has returned.
    private func onParkedThread(_ body: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        let resolved = DispatchSemaphore(value: 0)
        let leave = DispatchSemaphore(value: 0)
        startThread {
            body()
            resolved.signal()
            leave.wait()
        }
        resolved.wait()
        return { leave.signal() }
    }

    @Test func aResetReleasesAnInstanceThatAnotherLiveThreadResolvedBefore() {
        let container = Container()
        let released = WeakReference<Thing>()
        let unpark = onParkedThread {
            released.object = self.resolvedThrice(container.cachedThing)
        }
        defer { unpark() }
        #expect(released.object != nil)
        container.manager.reset(scope: .cached)
        #expect(released.object == nil)
    }

    @Test func aContainerThatGoesReleasesWhatAnotherLiveThreadResolvedBefore() {
        let released = WeakReference<Thing>()
        let unpark: @Sendable () -> Void
        do {
            // Handed over in a box the thread empties: the parked thread's closure must not
            // keep the container alive.
            let handed = Locked<Container?>(Container())
            unpark = onParkedThread {
                let container = handed.withLock { box in
                    defer { box = nil }
                    return box!
                }
                released.object = self.resolvedThrice(container.cachedThing)
            }
        }
        defer { unpark() }
        #expect(released.object == nil)
    }

    @Test func isolatedSingletonsThatEndReleaseWhatAnotherLiveThreadResolvedBefore() {
        let released = WeakReference<Thing>()
        var unpark: (@Sendable () -> Void)?
        Scope.withIsolatedSingletons {
            let container = Container()
            unpark = onParkedThread {
                released.object = self.resolvedThrice(container.singletonThing)
            }
            #expect(released.object != nil)
            Scope.singleton.reset()
            #expect(released.object == nil)
        }
        unpark?()
    }

    /// Many containers' hits resolved repeatedly on one thread: every instance is still released
    /// once its container goes or is reset.
    @Test func manyRepeatedHitsAreAllReleased() {
        let count = 700
        var released: [WeakReference<Thing>] = []
        var containers: [Container] = []
        for _ in 0..<count {
            let container = Container()
            let reference = WeakReference<Thing>()
            reference.object = resolvedThrice(container.cachedThing)
            released.append(reference)
            containers.append(container)
        }
        // Each container still resolves its own instance, whether or not it was pushed out.
        for (container, reference) in zip(containers, released) {
            #expect(container.cachedThing() === reference.object)
        }
        for container in containers.prefix(count / 2) {
            container.manager.reset(scope: .cached)
        }
        containers.removeAll()
        #expect(released.allSatisfy { $0.object == nil })
    }

    @Test func aRegistrationReplacesARepeatedHit() {
        let container = Container()
        let first = resolvedThrice(container.cachedThing)
        container.cachedThing.register { Thing(id: 42) }
        let replaced = container.cachedThing()
        #expect(replaced !== first)
        #expect(replaced.id == 42)
    }

    /// A hit retains nothing of the factory value's; the value itself keeps its container.
    @Test func aFactoryValueKeepsItsContainerThroughRepeatedHits() {
        weak var released: Container?
        let factory: Factory<Thing>
        let first: Thing
        do {
            let container = Container()
            released = container
            factory = container.cachedThing
            first = resolvedThrice(factory)
        }
        #expect(released != nil)
        #expect(factory() === first)
        released?.manager.reset(scope: .cached)
        #expect(factory() !== first)
    }

    @Test func aSingletonResetReachesARepeatedHit() {
        Scope.withIsolatedSingletons {
            let container = Container()
            let first = resolvedThrice(container.singletonThing)
            #expect(Container().singletonThing() === first)
            Scope.singleton.reset()
            #expect(container.singletonThing() !== first)
        }
    }

    @Test func tracingAndDecoratorsTurnedOnLaterSeeRepeatedHits() {
        let container = Container()
        _ = resolvedThrice(container.cachedThing)
        let lines = Locked<[String]>([])
        container.manager.logger = { line in lines.withLock { $0.append(line) } }
        container.manager.trace = true
        _ = container.cachedThing()
        #expect(lines.current.count == 1)
        #expect(lines.current.first?.contains("= C") == true)
        container.manager.trace = false

        let decorated = Counter()
        container.manager.decorator = { _ in decorated.increment() }
        _ = container.cachedThing()
        #expect(decorated.value == 1)
    }

    @Test func containersDoNotShareRepeatedHits() {
        let one = Container()
        let other = Container()
        let first = resolvedThrice(one.cachedThing)
        let second = resolvedThrice(other.cachedThing)
        #expect(first !== second)
        #expect(one.cachedThing() === first)
        #expect(other.cachedThing() === second)
    }

    @Test func aFactoryDeclaredWithAnotherScopeIsNotARepeatedHit() {
        let container = Container()
        let cached = resolvedThrice(container.cachedThing)
        #expect(container.cachedThing.unique() !== cached)
        let otherScope = Scope.Cached()
        #expect(container.cachedThing.scope(otherScope)() !== cached)
    }

    /// Threads resolving hits while another thread resets and re-registers:
    /// nothing crashes or races (CI runs this under ThreadSanitizer), and once the writes stop
    /// every thread resolves the one instance the table keeps.
    @Test func repeatedHitsFollowResetsUnderContention() {
        let container = Container()
        let stop = Locked(false)
        let made = Counter()
        container.cachedThing.register {
            made.increment()
            return Thing()
        }
        let results = runOnThreads(9) { index -> ObjectIdentifier? in
            if index == 0 {
                for round in 0..<3_000 {
                    if round % 3 == 0 {
                        container.cachedThing.register { Thing(id: round) }
                    } else {
                        container.manager.reset(scope: .cached)
                    }
                }
                stop.withLock { $0 = true }
                return nil
            }
            while !stop.current {
                _ = container.cachedThing()
            }
            return nil
        }
        #expect(results.allSatisfy { $0 == nil })
        let final = container.cachedThing()
        let seen = runOnThreads(8) { _ in
            (0..<3).map { _ in ObjectIdentifier(container.cachedThing()) }
        }
        #expect(seen.allSatisfy { $0.allSatisfy { $0 == ObjectIdentifier(final) } })
    }
}

extension RepeatedHitTests {
    /// Plain `.unique` and `.graph` resolves (which take no lock) on threads while others reset
    /// scopes and drop containers holding hits of the same threads: under ThreadSanitizer, this
    /// shows they never touch the same memory.
    @Test func plainResolvesStayCorrectWhilePurgesRun() {
        let container = Container()
        let stop = Locked(false)
        let failures = runOnThreads(5) { index -> Int in
            if index == 0 {
                for _ in 0..<2_000 {
                    // A reset of a scope, and a container that goes after threads hit it.
                    container.manager.reset(scope: .cached)
                    let passing = Container()
                    _ = passing.cachedThing()
                    _ = passing.cachedThing()
                }
                stop.withLock { $0 = true }
                return 0
            }
            var failures = 0
            while !stop.current {
                let root = container.graphRoot()
                if root.left.shared !== root.right.shared { failures += 1 }
                if container.uniqueThing() === container.uniqueThing() { failures += 1 }
                // Kept hits, and misses after each reset, in the same cache.
                _ = container.cachedThing()
            }
            return failures
        }
        #expect(failures.allSatisfy { $0 == 0 })
    }
}

/// A weak reference that threads may set and read.
final class WeakReference<Object: AnyObject>: @unchecked Sendable {
    // @unchecked Sendable: `object` is read and written only under `lock`.
    private let lock = NSLock()
    private weak var stored: Object?

    var object: Object? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
