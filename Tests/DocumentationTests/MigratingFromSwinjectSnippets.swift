import Depot
import DepotTesting
import Testing

// The snippets of MigratingFromSwinject.md. Those that conform `Container` to a protocol are in
// Examples/swinject-migration: a conformance holds for the whole test process, and would reach
// the other test targets' containers.

protocol Animal: Sendable {
    var name: String { get }
}
struct Cat: Animal {
    let name: String
}
struct Dog: Animal {
    let name: String
}
struct Horse: Animal {
    let name: String
    let isRunning: Bool
}
protocol Predator: Sendable {}
final class Lion: Animal, Predator {
    let name = "Leo"
}

extension Container {
    var lion: Factory<Lion> { self { Lion() }.cached }
    var wildAnimal: Factory<any Animal> { alias(\.lion) { $0 } }
    var predator: Factory<any Predator> { alias(\.lion) { $0 } }
}
final class PetOwner: Sendable {
    let pet: any Animal
    init(pet: any Animal) { self.pet = pet }
}

final class Parent: Sendable {
    let child: Child
    init(child: Child) { self.child = child }
}
final class Child: Sendable {
    let parent: Provider<Parent>
    init(parent: Provider<Parent>) { self.parent = parent }
}

extension Container {
    var animal: Factory<any Animal> { self { Cat(name: "Mimi") } }
    var petOwner: Factory<PetOwner> { self { PetOwner(pet: self.animal()) } }
}

extension Container {
    var cat: Factory<any Animal> { self { Cat(name: "Mimi") } }
    var dog: Factory<any Animal> { self { Dog(name: "Hachi") } }
}

extension Container {
    var horse: ParameterFactory<(name: String, isRunning: Bool), Horse> {
        self { Horse(name: $0.name, isRunning: $0.isRunning) }
    }
}

extension Container {
    var database: Factory<Database> { self { Database() }.cached }
}

extension Container {
    var parent: Factory<Parent> { self { Parent(child: self.child()) }.graph }
    var child: Factory<Child> { self { Child(parent: self.parent.provider) } }
}

/// A value the scopes below keep or make anew; each one made has the next number.
struct Ticket: Equatable {
    let number: Int
}

/// A factory of tickets numbered in the order they are made.
func numberedTickets(in container: Container) -> Factory<Ticket> {
    let made = Locked(0)
    return Factory(container) {
        let number = made.withLock { (count: inout Int) -> Int in
            count += 1
            return count
        }
        return Ticket(number: number)
    }
}

@Suite(.container)
struct MigratingFromSwinjectSnippets {
    @Test func aFactoryResolvesItsDependenciesThroughSelf() {
        let owner = Container.shared.petOwner()
        #expect(owner.pet.name == "Mimi")
    }

    @Test func implementsBecomesAliases() {
        let lion = Container.shared.lion()
        #expect(Container.shared.wildAnimal() as? Lion === lion)
        #expect(Container.shared.predator() as? Lion === lion)
    }

    @Test func namesBecomeFactoriesOfTheirOwn() {
        #expect(Container.shared.cat().name == "Mimi")
        #expect(Container.shared.dog().name == "Hachi")
    }

    @Test func argumentsBecomeATupleParameter() {
        let horse = Container.shared.horse((name: "Spirit", isRunning: true))
        #expect(horse.name == "Spirit")
        #expect(horse.isRunning)
    }

    @Test func theContainerScopeBecomesCachedAndItsResetAManagerReset() {
        let container = Container()
        let database = container.database()
        #expect(container.database() === database)
        container.manager.reset(scope: .cached)
        #expect(container.database() !== database)
    }

    @Test func graphAsTheDefaultScopeSharesWithinOneResolution() {
        let container = Container()
        let ticket = numberedTickets(in: container)
        let pair = Factory(container) { (ticket(), ticket()) }
        #expect(pair().0 != pair().1)
        container.manager.defaultScope = .graph
        let (left, right) = pair()
        #expect(left == right)
        #expect(pair().0 != left)
    }

    @Test func valueTypesAreKeptByTheStrongScopesAndMadeAnewByTheWeakOnes() {
        let container = Container()
        let ticket = numberedTickets(in: container)
        #expect(ticket.cached() == ticket.cached())
        #expect(ticket.singleton() == ticket.singleton())
        #expect(ticket.shared() != ticket.shared())
        #expect(ticket.weakSingleton() != ticket.weakSingleton())
    }

    @Test func aProviderMadeInTheGraphReachesTheParentThatHoldsIt() {
        let parent = Container.shared.parent()
        #expect(parent.child.parent.value === parent)
        #expect(Container.shared.parent() !== parent)
    }

    @Test func aChildsOverrideStaysInTheChild() {
        let checkout = Container.shared.makeChild()
        checkout.database.register { Database(inMemory: true) }
        #expect(checkout.database().isInMemory)
        #expect(!Container.shared.database().isInMemory)
        #expect(checkout.petOwner().pet.name == "Mimi")
    }
}
