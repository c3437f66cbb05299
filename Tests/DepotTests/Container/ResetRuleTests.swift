import Depot
import Testing

/// One rule for the singletons of a registration: `register`, `pop()`, `manager.reset()` and
/// `reset(options: .registration)` each drop the singletons made from the registrations they
/// replace or remove, and leave the others alone.
@Suite struct ResetRuleTests {
    /// Resolves the mock a registration gives the `.singleton` factory, then `forget`s, and
    /// returns the mock and what the factory gives after.
    private func singletonAfter(_ forget: (Container) -> Void) -> (mock: Thing, after: Thing) {
        Scope.withIsolatedSingletons {
            let container = Container()
            container.singletonThing.register { Thing(id: 9) }
            let mock = container.singletonThing()
            #expect(mock.id == 9 && container.singletonThing() === mock)
            forget(container)
            return (mock, container.singletonThing())
        }
    }

    @Test func resetOfEverythingDropsTheSingletonMadeFromARegistration() {
        let (mock, after) = singletonAfter { $0.manager.reset() }
        #expect(after !== mock)
        #expect(after.id == 0)
    }

    @Test func resetOfRegistrationsDropsTheSingletonMadeFromOne() {
        let (mock, after) = singletonAfter { $0.manager.reset(options: .registration) }
        #expect(after !== mock)
        #expect(after.id == 0)
    }

    @Test func aFactorysResetOfItsRegistrationDropsItsSingleton() {
        let (mock, after) = singletonAfter { $0.singletonThing.reset(.registration) }
        #expect(after !== mock)
        #expect(after.id == 0)
    }

    @Test func registerAndPopFollowTheSameRule() {
        let (mock, afterRegister) = singletonAfter { $0.singletonThing.register { Thing(id: 5) } }
        #expect(afterRegister !== mock && afterRegister.id == 5)
        let (pushed, afterPop) = singletonAfter { container in
            container.manager.push()
            container.singletonThing.register { Thing(id: 5) }
            #expect(container.singletonThing().id == 5)
            container.manager.pop()
        }
        // `pop()` puts the mock's registration back; its singleton was dropped with the
        // registration it replaced, so the mock's closure makes a new one.
        #expect(afterPop !== pushed && afterPop.id == 9)
    }

    @Test func resetsLeaveTheSingletonsOfUnregisteredFactoriesAlone() {
        Scope.withIsolatedSingletons {
            let container = Container()
            let declared = container.singletonThing()
            container.cachedThing.register { Thing(id: 3) }
            container.manager.reset()
            #expect(container.singletonThing() === declared)
            container.cachedThing.register { Thing(id: 3) }
            container.manager.reset(options: .registration)
            #expect(container.singletonThing() === declared)
        }
    }

    @Test func contextsAloneAreNotARegistrationThatMakesTheSingleton() {
        Scope.withIsolatedSingletons {
            let container = Container()
            let declared = container.singletonThing()
            container.singletonThing.onTest { Thing(id: 4) }
            container.manager.reset(options: .registration)
            #expect(container.singletonThing() === declared)
            container.manager.reset(options: .context)
            #expect(container.singletonThing() === declared)
        }
    }
}
