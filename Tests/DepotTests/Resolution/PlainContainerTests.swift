import Depot
import Foundation
import Testing

/// A container with nothing registered, no observer, parent, shared caches or default scope is
/// plain: its `.unique` and `.graph` factories resolve without the manager's lock, and its
/// `.cached` and `.singleton` ones find their kept instance with one look.
/// These tests make a container plain (by resolving), change one thing that ends that, and check
/// that the next resolve sees the change; then undo it, and check that plain resolves are back.
@Suite struct PlainContainerTests {
    @Test func aRegistrationOfAnotherFactoryLeavesUniqueAndGraphFactoriesAsDeclared() {
        let container = Container()
        #expect(container.uniqueThing() !== container.uniqueThing())
        container.cachedThing.register { Thing(id: 3) }
        #expect(container.uniqueThing() !== container.uniqueThing())
        #expect(container.uniqueThing().id == 0)
        let root = container.graphRoot()
        #expect(root.left.shared === root.right.shared)
        #expect(container.graphRoot().left.shared !== root.left.shared)
        container.cachedThing.reset()
        #expect(container.cachedThing().id == 0)
        #expect(container.uniqueThing() !== container.uniqueThing())
    }

    /// A container with registrations is plain for each factory with none of its own: it
    /// resolves as declared, keeps what its scope keeps, and takes a registration made for it
    /// later, on its next resolve.
    @Test func aFactoryWithNoRegistrationOfItsOwnResolvesAsDeclaredUntilItGetsOne() {
        let container = Container()
        container.sharedThing.register { Thing(id: 5) }
        let cached = container.cachedThing()
        #expect(cached.id == 0)
        #expect(container.cachedThing() === cached)
        #expect(container.uniqueThing().id == 0)
        #expect(container.uniqueThing() !== container.uniqueThing())
        let root = container.graphRoot()
        #expect(root.left.shared === root.right.shared)
        Scope.withIsolatedSingletons {
            let singleton = container.singletonThing()
            #expect(singleton.id == 0)
            #expect(container.singletonThing() === singleton)
            container.singletonThing.register { Thing(id: 7) }
            #expect(container.singletonThing().id == 7)
            #expect(container.singletonThing() === container.singletonThing())
        }
        container.cachedThing.register { Thing(id: 6) }
        #expect(container.cachedThing().id == 6)
        #expect(container.cachedThing() === container.cachedThing())
        container.uniqueThing.register { Thing(id: 8) }
        #expect(container.uniqueThing().id == 8)
        #expect(container.sharedThing().id == 5)
    }

    /// With so many registrations that every bit of the filter of registered keys is set, a
    /// factory with no registration of its own still resolves as declared (after a look for
    /// one under the lock), and a registered one by its registration.
    @Test func aFactoryWithNoRegistrationResolvesAsDeclaredAmongManyRegistered() {
        let container = Container()
        func register<T>(_: T.Type, remaining: Int) {
            container.tagged(T.self).register { Tagged<T>() }
            if remaining > 0 { register(Wrapped<T>.self, remaining: remaining - 1) }
        }
        register(Never.self, remaining: 200)
        let cached = container.cachedThing()
        #expect(cached.id == 0)
        #expect(container.cachedThing() === cached)
        #expect(container.uniqueThing().id == 0)
        #expect(container.uniqueThing() !== container.uniqueThing())
        Scope.withIsolatedSingletons {
            #expect(container.singletonThing() === container.singletonThing())
        }
        container.cachedThing.register { Thing(id: 6) }
        container.uniqueThing.register { Thing(id: 7) }
        #expect(container.cachedThing().id == 6)
        #expect(container.uniqueThing().id == 7)
    }

    /// `pop()` brings back registrations that a reset in between took away: the factories they
    /// are for resolve by them again, not as declared.
    @Test func popBringsBackRegistrationsThatAResetTookAway() {
        let container = Container()
        container.uniqueThing.register { Thing(id: 1) }
        container.cachedThing.register { Thing(id: 2) }
        container.manager.push()
        container.manager.reset(options: .registration)
        #expect(container.uniqueThing().id == 0)
        container.manager.pop()
        #expect(container.uniqueThing().id == 1)
        #expect(container.cachedThing().id == 2)
    }

    @Test func pushAndPopBringTheRegistrationsAndThenPlainResolvesBack() {
        let container = Container()
        _ = container.uniqueThing()
        container.manager.push()
        container.uniqueThing.register { Thing(id: 8) }
        container.graphThing.register { Thing(id: 9) }
        #expect(container.uniqueThing().id == 8)
        #expect(container.graphRoot().left.shared.id == 9)
        container.manager.pop()
        #expect(container.uniqueThing().id == 0)
        #expect(container.graphRoot().left.shared.id == 0)
        container.manager.push()
        container.uniqueThing.register { Thing(id: 10) }
        container.manager.pop()
        #expect(container.uniqueThing().id == 0)
    }

    @Test func recordingDependenciesTurnedOnLaterSeesPlainResolves() {
        let container = Container()
        _ = container.graphRoot()
        container.manager.isRecordingDependencies = true
        _ = container.graphRoot()
        let keys = Set(container.manager.dependencyGraph().nodes.map(\.key))
        #expect(keys.isSuperset(of: ["graphRoot", "graphLeaf", "graphThing"]))
    }

    @Test func aChildResolvesFromItsParentUnlessItRegisteredTheFactory() {
        let parent = Container()
        _ = parent.uniqueThing()
        let child = parent.makeChild()
        #expect(child.uniqueThing().id == 0)
        child.uniqueThing.register { Thing(id: 4) }
        #expect(child.uniqueThing().id == 4)
        #expect(parent.uniqueThing().id == 0)
        parent.uniqueThing.register { Thing(id: 5) }
        #expect(child.uniqueThing().id == 4)
        #expect(parent.uniqueThing().id == 5)
    }

    @Test func aLifetimeScopeOfAContainerWithRegistrationsUsesThem() {
        let root = Container()
        _ = root.newLifetimeScope().uniqueThing()
        root.uniqueThing.register { Thing(id: 6) }
        #expect(root.newLifetimeScope().uniqueThing().id == 6)
        let scope = root.newLifetimeScope()
        scope.uniqueThing.register { Thing(id: 7) }
        #expect(scope.uniqueThing().id == 7)
        #expect(root.uniqueThing().id == 6)
        root.uniqueThing.reset()
        let plainScope = root.newLifetimeScope()
        #expect(plainScope.uniqueThing().id == 0)
        #expect(plainScope.uniqueThing() !== plainScope.uniqueThing())
    }

    /// A `.cached` hit in a plain container follows a registration (which ends plainness) and
    /// the reset that undoes it; as in FactoryKit, forgetting a registration leaves the instance
    /// it made kept until the cache is reset.
    @Test func aPlainCachedHitFollowsARegistrationAndTheResetsThatUndoIt() {
        let container = Container()
        let declared = container.cachedThing()
        #expect(container.cachedThing() === declared)
        container.cachedThing.register { Thing(id: 2) }
        let registered = container.cachedThing()
        #expect(registered.id == 2)
        #expect(container.cachedThing() === registered)
        container.manager.reset(options: .registration)
        #expect(container.cachedThing() === registered)
        container.manager.reset(scope: .cached)
        let again = container.cachedThing()
        #expect(again.id == 0)
        #expect(again !== declared)
        #expect(container.cachedThing() === again)
    }

    /// An async factory's plain hit follows registrations and resets as a synchronous one's.
    @Test func aPlainAsyncCachedHitFollowsRegistrationsAndResets() async throws {
        let container = AsyncContainer()
        let first = try await container.cachedConnection()
        #expect(try await container.cachedConnection() === first)
        container.cachedConnection.register { Connection("registered") }
        #expect(try await container.cachedConnection().name == "registered")
        container.manager.reset(options: .registration)
        container.manager.reset(scope: .cached)
        let declared = try await container.cachedConnection()
        #expect(declared.name == "cached")
        #expect(declared !== first)
        #expect(try await container.cachedConnection() === declared)
        container.manager.reset(scope: .cached)
        #expect(try await container.cachedConnection() !== declared)
    }

    /// Threads resolve a plain factory while another registers it: every resolve that starts
    /// after the registration returned, on any thread, runs the registered closure.
    @Test func aRegistrationReachesEveryThreadThatResolvesAfterIt() {
        for _ in 0..<20 {
            let container = Container()
            let registered = DispatchSemaphore(value: 0)
            let ids = runOnThreads(4) { index -> [Int] in
                if index == 0 {
                    container.uniqueThing.register { Thing(id: 1) }
                    for _ in 1..<4 { registered.signal() }
                    return [container.uniqueThing().id]
                }
                for _ in 0..<200 { _ = container.uniqueThing() }
                registered.wait()
                return (0..<50).map { _ in container.uniqueThing().id }
            }
            #expect(ids.allSatisfy { $0.allSatisfy { $0 == 1 } })
        }
    }

    /// Sixteen threads resolve `.unique`, `.graph` and `.cached` factories while one registers and removes
    /// overrides and turns tracing on and off, so the container keeps leaving and becoming plain:
    /// every resolve gets the declared instance or the registered one, and every resolution
    /// shares its graph instance.
    @Test func resolvesStayRightWhileTheContainerKeepsLeavingAndBecomingPlain() {
        let container = Container()
        container.manager.logger = { _ in }
        let wrong = runOnThreads(16) { index -> Int in
            var wrong = 0
            for round in 0..<300 {
                if index == 0 {
                    switch round % 4 {
                    case 0:
                        container.uniqueThing.register { Thing(id: 1) }
                        container.cachedThing.register { Thing(id: 1) }
                    case 1: container.graphThing.register { Thing(id: 2) }
                    case 2: container.manager.trace = true
                    default:
                        container.manager.reset(options: .registration)
                        container.manager.trace = false
                    }
                }
                if ![0, 1].contains(container.uniqueThing().id) { wrong += 1 }
                if ![0, 1].contains(container.cachedThing().id) { wrong += 1 }
                let root = container.graphRoot()
                if root.left.shared !== root.right.shared { wrong += 1 }
                if ![0, 2].contains(root.left.shared.id) { wrong += 1 }
            }
            return wrong
        }
        #expect(wrong.allSatisfy { $0 == 0 })
        container.manager.reset(options: .registration)
        container.manager.trace = false
        #expect(container.uniqueThing().id == 0)
        #expect(container.uniqueThing() !== container.uniqueThing())
        #expect(container.cachedThing() === container.cachedThing())
    }
}

/// A type per nesting depth, for a factory key per depth (`tagged`).
private enum Wrapped<T> {}

/// What `tagged` makes.
private final class Tagged<T>: Sendable {}

extension Container {
    /// One factory per type `T`: keys that differ by their type alone.
    fileprivate func tagged<T>(_: T.Type) -> Factory<Tagged<T>> {
        self(key: "tagged") { Tagged<T>() }
    }
}
