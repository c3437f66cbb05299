import Depot
import Testing

/// A container of a test's own that can make lifetime scopes: its scopes are made by its own
/// `init()` and then adopt the container's state, where a `Container`'s are made lifetime
/// scopes from the start.
final class RequestServices: SharedContainer, ScopingContainer {
    @TaskLocal static var shared = RequestServices()
    let manager = ContainerManager()
}

/// A container whose `init()` sets something a lifetime scope does not take from its container.
final class RecordingServices: SharedContainer, ScopingContainer {
    static let shared = RecordingServices()
    let manager = ContainerManager()

    init() {
        manager.isRecordingDependencies = true
    }
}

/// The factories `Container` has for the tests (`Support/Containers.swift`).
extension RequestServices {
    var service: Factory<any Service> { self { LiveService() } }
    var cachedThing: Factory<Thing> { self { Thing() }.cached }
    var singletonThing: Factory<Thing> { self { Thing() }.singleton }
}

/// The factories the tests below resolve, on either kind of container.
private protocol ScopedServices: ScopingContainer {
    var service: Factory<any Service> { get }
    var cachedThing: Factory<Thing> { get }
    var singletonThing: Factory<Thing> { get }
}

extension RequestServices: ScopedServices {}
extension Container: ScopedServices {}

/// Both ways of making a lifetime scope give the same container: the same registrations,
/// settings and singletons as its container, caches of its own, and a copy that changes apart.
@Suite struct LifetimeScopeMakingTests {
    @Test func aContainersScopeAndACustomContainersScopeBehaveAlike() {
        Scope.withIsolatedSingletons {
            check(Container())
            check(RequestServices())
        }
    }

    private func check<C: ScopedServices>(_ root: C) {
        root.service.register { MockService("root") }
        root.manager.defaultScope = .cached
        root.manager.trace = true
        root.manager.logger = { _ in }
        let singleton = root.singletonThing()
        let rootThing = root.cachedThing()

        let scope = root.newLifetimeScope()
        #expect(ObjectIdentifier(scope.manager) != ObjectIdentifier(root.manager))
        #expect(scope.service().name == "root")
        #expect(scope.manager.defaultScope === Scope.cached)
        #expect(scope.manager.trace)
        // The default scope applies to the unscoped `service`: one per lifetime scope.
        #expect(scope.service() === scope.service())
        #expect(scope.service() !== root.service())
        let own = scope.cachedThing()
        #expect(own !== rootThing)
        #expect(scope.cachedThing() === own)
        #expect(ObjectIdentifier(scope.singletonThing()) == ObjectIdentifier(singleton))

        // Changed apart: the scope's registration and settings stay its own, and a scope made
        // after a change of its container has that change.
        scope.service.register { MockService("scope") }
        scope.manager.trace = false
        #expect(scope.service().name == "scope")
        #expect(root.service().name == "root")
        #expect(root.manager.trace)
        root.service.register { MockService("later") }
        let later = root.newLifetimeScope()
        #expect(later.service().name == "later")
        #expect(later.manager.trace)
        #expect(later.cachedThing() !== own)
    }

    @Test func aCustomContainersScopeKeepsWhatItsOwnInitSet() {
        let root = RecordingServices()
        root.manager.isRecordingDependencies = false
        let scope = root.newLifetimeScope()
        // Made by `RecordingServices.init()`, which turned recording on; then a lifetime scope.
        #expect(scope.manager.isRecordingDependencies)
        #expect(!root.manager.isRecordingDependencies)
    }

    @Test func aScopeMadeOnAThreadThatDroppedOneReusesNothingOfIt() {
        let root = Container()
        var first: Container? = root.newLifetimeScope()
        let dropped = first!.cachedThing()
        first = nil
        // The next scope takes the emptied tables of the one dropped, and none of its instances.
        let second = root.newLifetimeScope()
        #expect(second.cachedThing() !== dropped)
        #expect(second.cachedThing() === second.cachedThing())
        #expect(second.manager.cachedInstances().values.joined().count == 1)
    }
}
