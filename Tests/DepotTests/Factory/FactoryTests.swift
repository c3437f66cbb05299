import Depot
import Testing

@Suite struct FactoryTests {
    @Test func callingAndResolveAreTheSame() {
        let container = Container()
        #expect(container.cachedThing() === container.cachedThing.resolve())
    }

    @Test func registerReplacesTheClosureAndDropsTheCachedInstance() {
        let container = Container()
        let live = container.cachedService()
        container.cachedService.register { MockService() }
        let mock = container.cachedService()
        #expect(mock !== live)
        #expect(mock.name == "mock")
        #expect(container.cachedService() === mock)
    }

    @Test func callAsFunctionWithAClosureRegisters() {
        let container = Container()
        container.service { MockService("sugar") }
        #expect(container.service().name == "sugar")
    }

    @Test func registrationsStayInTheirContainer() {
        let first = Container()
        let second = Container()
        first.service.register { MockService() }
        #expect(first.service().name == "mock")
        #expect(second.service().name == "live")
    }

    @Test func factoryResetForgetsItsRegistrationAndCache() {
        let container = Container()
        container.cachedService.register { MockService() }
        let mock = container.cachedService()
        container.cachedService.reset()
        let live = container.cachedService()
        #expect(live.name == "live")
        #expect(live !== mock)
    }

    @Test func factoryResetScopeKeepsTheRegistration() {
        let container = Container()
        container.cachedService.register { MockService() }
        let first = container.cachedService()
        container.cachedService.reset(.scope)
        let second = container.cachedService()
        #expect(second !== first)
        #expect(second.name == "mock")
    }

    @Test func factoryResetRegistrationKeepsContexts() {
        let container = Container()
        container.service.register { MockService("registered") }
        container.service.onArg("factory-reset-arg") { MockService("context") }
        FactoryContext.setArg("factory-reset-arg", forKey: "factory-reset-arg")
        defer { FactoryContext.removeArg(forKey: "factory-reset-arg") }
        container.service.reset(.registration)
        #expect(container.service().name == "context")
        container.service.reset(.context)
        #expect(container.service().name == "live")
    }

    @Test func makesIsTheSameAsSelf() {
        let container = Container()
        #expect(container.madeThing().id == 7)
        container.madeThing.register { Thing(id: 8) }
        #expect(container.madeThing().id == 8)
    }

    @Test func promisedFactoryWithoutRegistrationIsNilWhenErrorsAreOff() {
        let container = Container()
        container.manager.promiseTriggersError = false
        #expect(container.promisedService() == nil)
    }

    @Test func promisedFactoryResolvesItsRegistration() {
        let container = Container()
        container.promisedService.register { MockService("promised") }
        #expect(container.promisedService()?.name == "promised")
    }

    @Test func explicitKeysSeparateFactoriesOfOneType() {
        let container = Container()
        let first = Factory(container, key: "first") { Thing(id: 1) }.cached
        let second = Factory(container, key: "second") { Thing(id: 2) }.cached
        #expect(first().id == 1)
        #expect(second().id == 2)
        #expect(first() === first())
        Factory<Thing>(container, key: "first") { Thing(id: 0) }.register { Thing(id: 10) }
        #expect(first().id == 10)
        #expect(second().id == 2)
    }

    @Test func parameterFactoryRegistrationSugarAndPromises() {
        let container = Container()
        container.thingWithID { Thing(id: $0 + 1) }
        #expect(container.thingWithID(1).id == 2)
        container.manager.promiseTriggersError = false
        #expect(container.promisedThing(3) == nil)
        container.promisedThing.register { Thing(id: $0) }
        #expect(container.promisedThing(3)?.id == 3)
        #expect(container.madeThingWithID(4).id == 4)
    }

    @Test func parameterFactoryPassesItsParameter() {
        let container = Container()
        #expect(container.thingWithID(4).id == 4)
        container.thingWithID.register { Thing(id: $0 * 10) }
        #expect(container.thingWithID(4).id == 40)
    }

    @Test func scopedParameterFactoryKeepsTheFirstParametersInstance() {
        let container = Container()
        let first = container.cachedThingWithID(1)
        #expect(container.cachedThingWithID(2) === first)
        #expect(first.id == 1)
    }

    @Test func scopeOnParametersKeepsOneInstancePerParameter() {
        let container = Container()
        let one = container.thingPerID(1)
        let two = container.thingPerID(2)
        #expect(one !== two)
        #expect(container.thingPerID(1) === one)
        #expect(container.thingPerID(2).id == 2)
    }

    @Test func registeringDropsEveryParametersInstanceOfThatFactoryOnly() {
        let container = Container()
        let one = container.thingPerID(1)
        let two = container.thingPerID(2)
        let other = container.cachedThing()
        container.manager.push()
        container.thingPerID.register { Thing(id: $0 + 10) }
        #expect(container.thingPerID(1).id == 11)
        #expect(container.thingPerID(2) !== two)
        #expect(container.cachedThing() === other)
        container.manager.pop()
        #expect(container.thingPerID(1) === one)
        container.thingPerID.reset(.scope)
        #expect(container.thingPerID(1) !== one)
        #expect(container.thingPerID(1).id == 1)
    }

    @Test func popDropsTheSingletonsMadeFromTheRegistrationsItReplaces() {
        Scope.withIsolatedSingletons {
            let container = Container()
            let untouched = container.singletonService()
            let live = container.singletonThing()
            container.manager.push()
            container.singletonThing.register { Thing(id: 7) }
            #expect(container.singletonThing().id == 7)
            container.manager.pop()
            #expect(container.singletonThing().id == 0)
            #expect(container.singletonThing() !== live)
            #expect(container.singletonService() === untouched)
        }
    }

    @Test func decoratorRunsOnEveryResolve() {
        let container = Container()
        let calls = Counter()
        let factory = container.cachedThing.decorator { _ in calls.increment() }
        _ = factory()
        _ = factory()
        #expect(calls.value == 2)
    }

    @Test func decoratorWithFlagTellsNewFromCached() {
        let container = Container()
        let flags = Locked<[Bool]>([])
        let factory = container.cachedThing.decorator { _, created in
            flags.withLock { $0.append(created) }
        }
        _ = factory()
        _ = factory()
        #expect(flags.current == [true, false])
    }

    @Test func modifiersAfterRegisterAreKeptWithTheRegistration() {
        let container = Container()
        container.uniqueThing.register { Thing(id: 5) }.scope(.cached)
        #expect(container.uniqueThing() === container.uniqueThing())
        #expect(container.uniqueThing().id == 5)
    }

    @Test func modifiersOnAPlainFactoryValueAreNotKept() {
        let container = Container()
        _ = container.uniqueThing.cached
        #expect(container.uniqueThing() !== container.uniqueThing())
    }

    @Test func onceLeavesTheFactoryAsItIs() {
        let container = Container()
        let factory = container.cachedThing.once()
        #expect(factory() === container.cachedThing())
    }

    @Test func timeToLiveReplacesOldInstancesOnTheNextResolve() {
        let container = Container()
        let now = Locked(100.0)
        container.manager.clock = ContainerManager.Clock { now.current }
        let factory = container.cachedThing.timeToLive(10)
        let first = factory()
        now.withLock { $0 = 109.9 }
        #expect(factory() === first)
        now.withLock { $0 = 110 }
        let second = factory()
        #expect(second !== first)
        now.withLock { $0 = 115 }
        #expect(factory() === second)
    }

    @Test func monotonicClockNeverGoesBack() {
        let clock = ContainerManager.Clock.monotonic
        let first = clock.now()
        #expect(clock.now() >= first)
    }

    @Test @MainActor func resolvesOnTheMainActor() {
        let container = Container()
        #expect(container.cachedThing.resolveOnMainActor() === container.cachedThing())
        #expect(container.thingWithID.resolveOnMainActor(3).id == 3)
    }

    @Test func resolvesOnAGlobalActor() async {
        let container = Container()
        let resolved = await container.cachedService.resolveOnGlobalActor(MainActor.shared)
        #expect(resolved === container.cachedService())
        let thing = await container.cachedThingWithID.resolveOnGlobalActor(
            MainActor.shared, parameters: 9)
        #expect(thing.id == 9)
    }
}
