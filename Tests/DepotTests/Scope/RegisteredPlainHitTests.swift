import Depot
import Testing

// A plain `.cached` or `.singleton` declaration that something was registered for: its hit
// skips `prepare` unless the registration changes what a hit does (a decorator, a time to live).
extension Container {
    fileprivate var keptThing: Factory<Thing> { self { Thing(id: 0) }.cached }
    fileprivate var keptSingletonThing: Factory<Thing> { self { Thing(id: 0) }.singleton }
}

@Suite struct RegisteredPlainHitTests {
    @Test func aRegisteredClosureMakesTheInstanceThatLaterHitsReturn() {
        let container = Container()
        let made = Counter()
        container.keptThing.register {
            made.increment()
            return Thing(id: 1)
        }
        let first = container.keptThing()
        #expect(first.id == 1)
        for _ in 0..<3 {
            #expect(container.keptThing() === first)
        }
        #expect(made.value == 1)
        // A new registration drops the instance: the next resolve makes one with it.
        container.keptThing.register { Thing(id: 2) }
        #expect(container.keptThing().id == 2)
    }

    @Test func aRegisteredSingletonClosureIsKeptForEveryContainerOfTheType() {
        Scope.withIsolatedSingletons {
            let made = Counter()
            let container = Container()
            container.keptSingletonThing.register {
                made.increment()
                return Thing(id: 3)
            }
            let first = container.keptSingletonThing()
            #expect(first.id == 3)
            #expect(container.keptSingletonThing() === first)
            #expect(made.value == 1)
        }
    }

    @Test func aDecoratorAppliedFromOutsideRunsOnEveryHit() {
        let container = Container()
        let seen = Counter()
        container.keptThing.decorator { _ in seen.increment() }
        let first = container.keptThing()
        #expect(container.keptThing() === first)
        #expect(container.keptThing() === first)
        #expect(seen.value == 3)
        Scope.withIsolatedSingletons {
            let seenSingleton = Counter()
            container.keptSingletonThing.decorator { _ in seenSingleton.increment() }
            let singleton = container.keptSingletonThing()
            #expect(container.keptSingletonThing() === singleton)
            #expect(seenSingleton.value == 2)
        }
    }

    @Test func aTimeToLiveAppliedFromOutsideReplacesAnOldInstanceOnAHit() {
        let now = Locked(0.0)
        let container = Container()
        container.manager.clock = ContainerManager.Clock { now.current }
        container.keptThing.timeToLive(10)
        let first = container.keptThing()
        now.withLock { $0 = 9 }
        #expect(container.keptThing() === first)
        now.withLock { $0 = 10 }
        let second = container.keptThing()
        #expect(second !== first)
        #expect(container.keptThing() === second)
    }
}
