import Depot
import DepotTesting
import Testing

final class Consumer {
    @Injected(\.cachedService) var service
    @Injected(\ServiceContainer.service) var containerService
    @LazyInjected(\.cachedThing) var lazyThing
    @WeakLazyInjected(\.sharedThing) var weakThing
    @DynamicInjected(\.uniqueThing) var dynamicThing
    @InjectedContainer var container: Container
}

final class LazyConsumer {
    @LazyInjected(\.uniqueThing) var lazyThing
}

@Suite(.container) struct InjectionTests {
    @Test func injectedResolvesFromTheSharedContainerAtInit() {
        let consumer = Consumer()
        #expect(consumer.service === Container.shared.cachedService())
        #expect(consumer.container === Container.shared)
    }

    @Test(.container { $0.cachedService.register { MockService("trait") } })
    func injectedSeesTheTestsRegistrations() {
        #expect(Consumer().service.name == "trait")
    }

    @Test func injectedFromACustomContainer() {
        let services = ServiceContainer()
        ServiceContainer.$shared.withValue(services) {
            #expect(Consumer().containerService === services.service())
        }
    }

    @Test func injectedProjectionExposesTheFactoryAndResolvesAgain() {
        let consumer = Consumer()
        let first = consumer.service
        #expect(consumer.$service.factory() === first)
        consumer.$service.resolve(reset: .scope)
        #expect(consumer.service !== first)
        #expect(consumer.service === Container.shared.cachedService())
    }

    @Test func injectedValueCanBeReplaced() {
        let consumer = Consumer()
        consumer.service = MockService("set")
        #expect(consumer.service.name == "set")
    }

    @Test func lazyInjectedResolvesOnFirstAccessOnly() {
        let calls = Counter()
        Container.shared.cachedThing.register {
            calls.increment()
            return Thing(id: 1)
        }
        let consumer = Consumer()
        #expect(consumer.$lazyThing.resolvedOrNil() == nil)
        #expect(calls.value == 0)
        let first = consumer.lazyThing
        #expect(calls.value == 1)
        #expect(consumer.lazyThing === first)
        #expect(consumer.$lazyThing.resolvedOrNil() === first)
        consumer.$lazyThing.resolve(reset: .scope)
        #expect(consumer.lazyThing !== first)
        #expect(consumer.$lazyThing.factory() === consumer.lazyThing)
    }

    @Test func weakLazyInjectedHoldsWeakly() {
        let consumer = Consumer()
        #expect(consumer.$weakThing.resolvedOrNil() == nil)
        var strong: Thing? = Container.shared.sharedThing()
        #expect(consumer.weakThing === strong)
        strong = nil
        #expect(consumer.weakThing == nil)
        #expect(consumer.$weakThing.resolvedOrNil() == nil)
        consumer.$weakThing.resolve()
        _ = consumer.$weakThing.factory
    }

    @Test func dynamicInjectedResolvesOnEveryAccess() {
        let consumer = Consumer()
        #expect(consumer.dynamicThing !== consumer.dynamicThing)
        Container.shared.uniqueThing.register { Thing(id: 6) }
        #expect(consumer.dynamicThing.id == 6)
        #expect(consumer.$dynamicThing().id == 6)
    }

    @Test func injectedTypeResolvesRegisteredTypes() {
        let container = TypeContainer()
        container.register { Thing(id: 11) }
        let injected = InjectedType<Thing>(container)
        #expect(injected.wrappedValue?.id == 11)
        #expect(InjectedType<Thing>().wrappedValue == nil)
    }

    @Test func dependencyFunctionsResolveFromSharedContainers() {
        #expect(dependency(\.cachedService) === Container.shared.cachedService())
        #expect(dependency(\.thingWithID, parameter: 5).id == 5)
        let services = ServiceContainer()
        ServiceContainer.$shared.withValue(services) {
            #expect(dependency(\ServiceContainer.service) === services.service())
        }
    }

    @Test func lazyInjectedResolvesOnceUnderConcurrentFirstAccess() {
        let calls = Counter()
        Container.shared.uniqueThing.register {
            calls.increment()
            return Thing()
        }
        let consumer = LazyConsumer()
        nonisolated(unsafe) let shared = consumer
        let things = runOnThreads(16) { _ in ObjectIdentifier(shared.lazyThing) }
        #expect(Set(things).count == 1)
        #expect(calls.value == 1)
    }
}
