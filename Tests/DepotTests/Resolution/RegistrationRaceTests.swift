import Depot
import Dispatch
import Testing

/// A resolve that runs while a registration changes may return what either closure makes, but
/// once the registration has returned, the container keeps only what the new closure makes:
/// a resolve whose plan was made before the change starts no creation, and its value is its
/// own (`ContainerManager.isCurrent(_:)`). Each test races one first resolve with one
/// registration, many times; before the registrations' version, a few percent of the rounds
/// left the declared closure's instance cached after the registration.
@Suite struct RegistrationRaceTests {
    static let rounds = 1_000

    /// Races a first resolve of `factory` in a new container with a registration of `id`, and
    /// returns in how many rounds the container kept another instance afterwards.
    static func staleRounds(
        prepare: @Sendable (Container) -> Void = { _ in },
        _ factory: @escaping @Sendable (Container) -> Factory<Thing>
    ) -> Int {
        var stale = 0
        for _ in 0..<rounds {
            let container = Container()
            prepare(container)
            _ = runOnThreads(2) { index -> Bool in
                if index == 0 {
                    factory(container).register { Thing(id: 1) }
                } else {
                    _ = factory(container)()
                }
                return true
            }
            if factory(container)().id != 1 { stale += 1 }
        }
        return stale
    }

    /// Races a first resolve of `factory` in a new container with a registration of another
    /// factory, and returns in how many rounds the resolve got an instance the container does
    /// not keep: another factory's registration must not outdate its plan.
    static func twiceMadeRounds(_ factory: @escaping @Sendable (Container) -> Factory<Thing>)
        -> Int
    {
        var twice = 0
        for _ in 0..<rounds {
            let container = Container()
            let resolved = runOnThreads(2) { index -> Thing? in
                if index == 0 {
                    container.uniqueThing.register { Thing(id: 2) }
                    return nil
                }
                return factory(container)()
            }
            if resolved[1] !== factory(container)() { twice += 1 }
        }
        return twice
    }

    @Test func anotherFactorysRegistrationMakesNoSecondInstance() {
        #expect(Self.twiceMadeRounds { $0.cachedThing } == 0)
        Scope.withIsolatedSingletons {
            #expect(Self.twiceMadeRounds { $0.singletonThing } == 0)
        }
    }

    @Test func aPlainContainerKeepsNoInstanceOfTheReplacedClosure() {
        #expect(Self.staleRounds { $0.cachedThing } == 0)
    }

    @Test func aContainerWithRegistrationsKeepsNoInstanceOfTheReplacedClosure() {
        let stale = Self.staleRounds(prepare: { $0.uniqueThing.register { Thing(id: 2) } }) {
            $0.cachedThing
        }
        #expect(stale == 0)
    }

    @Test func aRegisteredFactorysHitKeepsNoInstanceOfTheClosureRegisteredAgain() {
        // Registered and kept already: the racing resolve is a hit of a registered factory.
        let stale = Self.staleRounds(prepare: { container in
            container.cachedThing.register { Thing(id: 3) }
            _ = container.cachedThing()
        }) { $0.cachedThing }
        #expect(stale == 0)
        Scope.withIsolatedSingletons {
            let staleSingletons = Self.staleRounds(prepare: { container in
                container.singletonThing.register { Thing(id: 3) }
                _ = container.singletonThing()
            }) { $0.singletonThing }
            #expect(staleSingletons == 0)
        }
    }

    @Test func theSingletonsKeepNoInstanceOfTheReplacedClosure() {
        Scope.withIsolatedSingletons {
            #expect(Self.staleRounds { $0.singletonThing } == 0)
        }
    }

    @Test func anAsyncFactoryKeepsNoInstanceOfTheReplacedClosure() async throws {
        var stale = 0
        for _ in 0..<Self.rounds {
            let container = AsyncContainer()
            let resolving = Task.detached { try await container.cachedConnection() }
            container.cachedConnection.register { Connection("registered") }
            _ = try await resolving.value
            if try await container.cachedConnection().name != "registered" { stale += 1 }
        }
        #expect(stale == 0)
    }
}
