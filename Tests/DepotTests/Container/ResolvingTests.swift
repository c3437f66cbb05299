import Depot
import Testing

final class TypeContainer: SharedContainer, Resolving {
    static let shared = TypeContainer()
    let manager = ContainerManager()
}

/// Registered by one test only. A singleton is kept for the container type, and registering a
/// type in any `TypeContainer` drops its singleton: with `Thing`, which other tests register
/// while they run in parallel, the two resolves could get different instances.
private final class SingletonThing: Sendable {
    let id: Int
    init(id: Int = 0) { self.id = id }
}

@Suite struct ResolvingTests {
    @Test func resolvesWhatWasRegisteredForTheType() {
        let container = TypeContainer()
        container.register { MockService("typed") as any Service }
        #expect(container.resolve((any Service).self)?.name == "typed")
    }

    @Test func unregisteredTypeResolvesToNil() {
        let container = TypeContainer()
        #expect(container.resolve(Thing.self) == nil)
        #expect(container.factory(Thing.self) == nil)
    }

    @Test func registrationModifiersAreKept() {
        let container = TypeContainer()
        container.register { SingletonThing() }.scope(.singleton)
        #expect(container.resolve(SingletonThing.self) === container.resolve(SingletonThing.self))
        container.register { SingletonThing(id: 2) }
        #expect(container.resolve(SingletonThing.self)?.id == 2)
    }

    @Test func laterRegistrationReplacesEarlier() {
        let container = TypeContainer()
        container.register { Thing(id: 1) }
        container.register { Thing(id: 2) }
        #expect(container.factory(Thing.self)?().id == 2)
    }
}
