import Depot
import Foundation
import Testing

/// An instance whose `deinit` resolves from the container that made it, as a `@LazyInjected`
/// logger read for the first time in `deinit` would.
final class ResolvesInDeinit: @unchecked Sendable {
    let container: Container
    let resolved: Counter
    init(_ container: Container, resolved: Counter) {
        self.container = container
        self.resolved = resolved
    }
    deinit {
        _ = container.deinitClock()
        _ = container.deinitSingletonClock()
        resolved.increment()
    }
}

extension Container {
    var deinitClock: Factory<Thing> { self { Thing() }.cached }
    var deinitSingletonClock: Factory<Thing> { self { Thing() }.singleton }
    var resolvesInDeinit: ParameterFactory<Counter, ResolvesInDeinit> {
        self { ResolvesInDeinit(self, resolved: $0) }.cached
    }
    var singletonResolvesInDeinit: ParameterFactory<Counter, ResolvesInDeinit> {
        self { ResolvesInDeinit(self, resolved: $0) }.singleton
    }
    var sharedResolvesInDeinit: ParameterFactory<Counter, ResolvesInDeinit> {
        self { ResolvesInDeinit(self, resolved: $0) }.shared
    }
}

/// Notes the thread its `deinit` runs on.
final class NotesReleasingThread: @unchecked Sendable {
    let thread: Locked<String?>
    init(_ thread: Locked<String?>) { self.thread = thread }
    deinit { thread.withLock { $0 = Thread.current.name } }
}

/// A reset, `pop()` and a registration release what they drop on the thread that calls them
/// (after Depot's lock): a test of main-actor types calls them on the main actor.
@Suite struct ReleasingThreadTests {
    @Test(arguments: ["reset", "pop", "register"])
    func whatADropReleasesEndsOnTheCallingThread(drop: String) {
        let released = Locked<String?>(nil)
        let container = Container()
        if drop == "pop" { container.manager.push() }
        let factory = Factory(container, key: "noted") { NotesReleasingThread(released) }.cached
        _ = factory()
        _ = runOnThreads(1) { _ in
            Thread.current.name = "dropping thread"
            switch drop {
            case "reset": container.manager.reset(options: .scope)
            case "pop": container.manager.pop()
            default: factory.register { NotesReleasingThread(Locked(nil)) }
            }
        }
        #expect(released.current == "dropping thread")
    }
}

/// Instances that Depot drops are released after its locks are let go, so a `deinit` that
/// resolves from the same container does not deadlock: each test runs its scenario on a thread
/// of its own and fails, instead of hanging the suite, if that thread does not finish.
@Suite struct ReleaseOutsideLockTests {
    /// Runs `scenario` with a fresh container and a counter of the deinits that resolved; expects
    /// it to finish before the hang limit with `expected` such deinits.
    private func expectNoDeadlock(
        expected: Int = 1, _ scenario: @escaping @Sendable (Container, Counter) -> Void
    ) {
        let resolved = Counter()
        let done = DispatchSemaphore(value: 0)
        startThread {
            // Singletons of its own: a singleton reset here reaches no other test.
            Scope.withIsolatedSingletons {
                scenario(Container(), resolved)
            }
            done.signal()
        }
        #expect(signalled(done, within: hangLimit), "the scenario deadlocked")
        #expect(resolved.value == expected)
    }

    /// The resets that drop a container's cached instance.
    enum Reset: CaseIterable, Sendable {
        case scopes, everything, cachedScope, factory

        func run(on container: Container) {
            switch self {
            case .scopes: container.manager.reset(options: .scope)
            case .everything: container.manager.reset()
            case .cachedScope: container.manager.reset(scope: .cached)
            case .factory: container.resolvesInDeinit.reset()
            }
        }
    }

    @Test(arguments: Reset.allCases)
    func aResetReleasesAfterTheLock(reset: Reset) {
        expectNoDeadlock { container, resolved in
            _ = container.resolvesInDeinit(resolved)
            reset.run(on: container)
        }
    }

    @Test func aNewRegistrationReleasesTheReplacedInstanceAfterTheLock() {
        expectNoDeadlock(expected: 2) { container, resolved in
            _ = container.resolvesInDeinit(resolved)
            container.resolvesInDeinit.register { ResolvesInDeinit(container, resolved: $0) }
            // The registered closure holds an instance too: replacing the registration lets
            // it go.
            let captured = ResolvesInDeinit(container, resolved: resolved)
            container.deinitClock.register { [captured] in
                _ = captured
                return Thing()
            }
            container.deinitClock.register { Thing() }
        }
    }

    @Test func aReplacedSettingReleasesWhatItCapturedAfterTheLock() {
        expectNoDeadlock(expected: 2) { container, resolved in
            do {
                let captured = ResolvesInDeinit(container, resolved: resolved)
                container.manager.logger = { _ in _ = captured }
            }
            do {
                let captured = ResolvesInDeinit(container, resolved: resolved)
                container.manager.decorator = { _ in _ = captured }
            }
            // Each replaced closure held the last reference to what it captured.
            container.manager.logger = { _ in }
            container.manager.decorator = nil
        }
    }

    @Test func popReleasesWhatWasMadeSincePushAfterTheLock() {
        expectNoDeadlock { container, resolved in
            container.manager.push()
            _ = container.resolvesInDeinit(resolved)
            container.manager.pop()
        }
    }

    @Test func timeToLiveReleasesTheReplacedInstanceAfterTheLock() {
        expectNoDeadlock { container, resolved in
            let now = Locked(0.0)
            container.manager.clock = ContainerManager.Clock { now.current }
            let factory = container.resolvesInDeinit.timeToLive(1)
            _ = factory(resolved)
            now.withLock { $0 = 2 }
            // The instance this makes is kept; only the replaced one is released.
            withExtendedLifetime(factory(Counter())) {}
        }
    }

    @Test func aSingletonResetReleasesAfterTheLock() {
        expectNoDeadlock { container, resolved in
            _ = container.singletonResolvesInDeinit(resolved)
            Scope.singleton.reset()
        }
    }

    @Test func aSingletonFactoryResetReleasesAfterTheLock() {
        expectNoDeadlock { container, resolved in
            _ = container.singletonResolvesInDeinit(resolved)
            container.singletonResolvesInDeinit.reset()
        }
    }

    @Test func aCustomScopeResetReleasesAfterTheLock() {
        expectNoDeadlock { container, resolved in
            let factory = container.resolvesInDeinit.scope(Self.session)
            _ = factory(resolved)
            Self.session.reset()
        }
    }

    @Test func aWeaklyHeldInstanceReleasedByItsLastOwnerMayResolve() {
        expectNoDeadlock(expected: 2) { container, resolved in
            _ = container.sharedResolvesInDeinit(resolved)
            // The first instance is gone; a new one is made, kept weakly, and let go again.
            _ = container.sharedResolvesInDeinit(resolved)
        }
    }

    @Test func aClockThatResolvesIsReadOutsideTheLock() {
        expectNoDeadlock { container, resolved in
            container.manager.clock = ContainerManager.Clock {
                // A unique factory: it keeps nothing, so it reads no clock itself.
                _ = container.uniqueThing()
                return 0
            }
            let factory = container.resolvesInDeinit.timeToLive(60)
            let first = factory(resolved)
            #expect(factory(Counter()) === first)
            container.resolvesInDeinit.reset()
        }
    }

    @Test func loggersAndDecoratorsThatResolveRunOutsideTheLock() {
        expectNoDeadlock(expected: 0) { container, _ in
            let calls = Counter()
            // Each observer resolves from the container, but not from inside its own
            // resolution's observers, which would recurse for ever.
            let isObserving = Locked(false)
            let observe: @Sendable () -> Void = {
                calls.increment()
                let isFirst = isObserving.withLock { isObserving in
                    defer { isObserving = true }
                    return !isObserving
                }
                guard isFirst else { return }
                _ = container.deinitClock()
                isObserving.withLock { $0 = false }
            }
            container.manager.trace = true
            container.manager.logger = { _ in observe() }
            container.manager.decorator = { _ in observe() }
            let decorated = container.cachedThing.decorator { _ in observe() }
            _ = decorated()
            _ = decorated()
            // Twice each at least: the factory's decorator, the manager's, and a trace line.
            #expect(calls.value >= 6)
        }
    }

    private static let session = Scope.Cached()
}
