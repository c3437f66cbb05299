import Depot
import Testing

@Suite struct ContainerTests {
    @Test func eachContainerKeepsItsOwnCachedInstances() {
        let first = Container()
        let second = Container()
        #expect(first.cachedThing() === first.cachedThing())
        #expect(first.cachedThing() !== second.cachedThing())
    }

    @Test func customSharedContainerResolvesItsFactories() {
        let container = ServiceContainer()
        #expect(container.service().name == "live")
        #expect(container.service() === container.service())
    }

    @Test func sharedContainerExtensionsServeEveryContainer() {
        let container = Container()
        let services = ServiceContainer()
        #expect(container.commonThing().id == 3)
        #expect(services.commonThing().id == 3)
        #expect(container.commonThing() === container.commonThing())
        #expect(container.commonThing() !== services.commonThing())
    }

    @Test func autoRegisterRunsOnceBeforeFirstUseAndAgainAfterRegistrationReset() {
        let container = AutoContainer()
        #expect(container.autoRegistrations.value == 0)
        #expect(container.service().name == "auto")
        #expect(container.service().name == "auto")
        #expect(container.autoRegistrations.value == 1)
        container.manager.reset(options: .registration)
        #expect(container.service().name == "auto")
        #expect(container.autoRegistrations.value == 2)
    }

    @Test func autoRegisterCanResolveAndOtherThreadsWaitForIt() {
        let container = AutoContainer()
        let results = runOnThreads(16) { _ in container.resolvedDuringAutoRegister() }
        #expect(container.autoRegistrations.value == 1)
        #expect(results.allSatisfy { $0.id == 42 && $0 === results[0] })
    }

    @Test func registrationBeforeFirstResolveOutlivesAutoRegister() {
        let container = AutoContainer()
        container.service.register { MockService("test") }
        #expect(container.service().name == "test")
        #expect(container.autoRegistrations.value == 1)
    }

    @Test func pushAndPopRestoreRegistrationsAndCaches() {
        let container = Container()
        let original = container.cachedThing()
        container.manager.push()
        container.service.register { MockService("pushed") }
        container.manager.reset(scope: .cached)
        #expect(container.service().name == "pushed")
        #expect(container.cachedThing() !== original)
        container.manager.pop()
        #expect(container.service().name == "live")
        #expect(container.cachedThing() === original)
    }

    @Test func popWithoutPushDoesNothing() {
        let container = Container()
        container.service.register { MockService() }
        container.manager.pop()
        #expect(container.service().name == "mock")
    }

    @Test func resetAllForgetsRegistrationsContextsAndCaches() {
        let container = Container()
        let original = container.cachedThing()
        container.service.register { MockService() }
        container.reset()
        #expect(container.service().name == "live")
        #expect(container.cachedThing() !== original)
    }

    @Test func resetScopeKeepsRegistrations() {
        let container = Container()
        container.service.register { MockService() }
        let original = container.cachedThing()
        container.manager.reset(options: .scope)
        #expect(container.cachedThing() !== original)
        #expect(container.service().name == "mock")
    }

    @Test func resetRegistrationKeepsCaches() {
        let container = Container()
        let original = container.cachedThing()
        container.service.register { MockService() }
        container.manager.reset(options: .registration)
        #expect(container.service().name == "live")
        #expect(container.cachedThing() === original)
    }

    @Test func resetNoneChangesNothing() {
        let container = Container()
        container.service.register { MockService() }
        let original = container.cachedThing()
        container.manager.reset(options: .none)
        #expect(container.service().name == "mock")
        #expect(container.cachedThing() === original)
    }

    @Test func transformSugarRegistersOnTheContainer() {
        let container = Container()
        container { $0.service.register { MockService("sugar") } }
        #expect(container.service().name == "sugar")
    }

    @Test func containerDecoratorSeesEveryResolution() {
        let container = Container()
        let seen = Locked<[String]>([])
        container.decorator { value in seen.withLock { $0.append("\(type(of: value))") } }
        _ = container.uniqueThing()
        _ = container.cachedThing()
        _ = container.cachedThing()
        #expect(seen.current == ["Thing", "Thing", "Thing"])
    }

    @Test func defaultScopeAppliesToFactoriesThatNameNone() {
        let container = Container()
        container.manager.defaultScope = .cached
        #expect(container.uniqueThing() === container.uniqueThing())
        #expect(container.singletonThing() === container.singletonThing())
        container.manager.defaultScope = nil
        #expect(container.uniqueThing() !== container.uniqueThing())
    }

    @Test func traceLogsEachResolutionThroughTheLogger() {
        let container = Container()
        let lines = Locked<[String]>([])
        container.manager.logger = { line in lines.withLock { $0.append(line) } }
        container.manager.trace = true
        _ = container.cachedThing()
        _ = container.cachedThing()
        container.manager.trace = false
        _ = container.cachedThing()
        #expect(lines.current.count == 2)
        #expect(lines.current[0].contains("Container.cachedThing<Thing> = F [cached]"))
        #expect(lines.current[1].contains("Container.cachedThing<Thing> = C [cached]"))
    }
}

extension SharedContainer {
    var commonThing: Factory<Thing> { self { Thing(id: 3) }.cached }
}
