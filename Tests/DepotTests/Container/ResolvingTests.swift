import Depot
import Testing

final class TypeContainer: SharedContainer, Resolving {
    static let shared = TypeContainer()
    let manager = ContainerManager()
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
        container.register { Thing() }.scope(.singleton)
        #expect(container.resolve(Thing.self) === container.resolve(Thing.self))
        container.register { Thing(id: 2) }
        #expect(container.resolve(Thing.self)?.id == 2)
    }

    @Test func laterRegistrationReplacesEarlier() {
        let container = TypeContainer()
        container.register { Thing(id: 1) }
        container.register { Thing(id: 2) }
        #expect(container.factory(Thing.self)?().id == 2)
    }
}
