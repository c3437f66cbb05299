import Depot
import Testing

extension Scope {
    static let session = Scope.Cached()
    static let otherSession = Scope.Cached()
}

extension Container {
    func thing(in scope: Scope) -> Thing { uniqueThing.scope(scope)() }
    var sessionThing: Factory<Thing> { self { Thing() }.scope(.session) }
    var otherSessionThing: Factory<Thing> { self { Thing() }.scope(.otherSession) }
}

@Suite struct ScopeTests {
    @Test(arguments: [
        Scope.cached, .shared, .singleton, .weakSingleton, Scope.session, Scope.Shared(),
        Scope.Singleton(), Scope.WeakSingleton(),
    ])
    func cachingScopesReturnOneInstanceUntilReset(scope: Scope) {
        Scope.withIsolatedSingletons {
            let container = Container()
            let factory = container.uniqueThing.scope(scope)
            let first = factory()
            #expect(factory() === first)
            factory.reset(.scope)
            #expect(factory() !== first)
        }
    }

    @Test func isolatedSingletonsAreLetGoOfWhenTheirScopeEnds() async {
        final class Probe: @unchecked Sendable {
            let released: Locked<Int>
            init(_ released: Locked<Int>) { self.released = released }
            deinit { released.withLock { $0 += 1 } }
        }
        let released = Locked(0)
        Scope.withIsolatedSingletons {
            let container = Container()
            let singleton = container.uniqueThing.scope(.singleton)
            _ = Factory(container, key: "probe") { Probe(released) }.singleton()
            _ = singleton()
        }
        #expect(released.current == 1)
        await Scope.withIsolatedSingletons {
            _ = Factory(Container(), key: "probe") { Probe(released) }.singleton()
            await Task.yield()
        }
        #expect(released.current == 2)
    }

    // Tests run in parallel, so a test that resets a scope everywhere uses a scope of its own.
    @Test func customScopeInstancesAreResetOnTheirOwn() {
        Scope.withIsolatedSingletons {
            let container = Container()
            let mySingleton = Scope.Singleton()
            let myShared = Scope.Shared()
            let otherShared = Scope.Shared()
            let ownSingleton = container.uniqueThing.scope(mySingleton)
            let builtIn = container.singletonThing()
            let first = ownSingleton()
            let held = container.thing(in: myShared)
            // A factory keeps one instance per container: each scope here has a factory of its own.
            let otherFactory = container.cachedService.scope(otherShared)
            let otherHeld = otherFactory()
            Scope.singleton.reset()
            otherShared.reset()
            #expect(ownSingleton() === first)
            #expect(container.thing(in: myShared) === held)
            #expect(container.singletonThing() !== builtIn)
            #expect(otherFactory() !== otherHeld)
            mySingleton.reset()
            myShared.reset()
            #expect(ownSingleton() !== first)
            #expect(container.thing(in: myShared) !== held)
        }
    }

    @Test func uniqueScopesInstancesKeepNothing() {
        let container = Container()
        let factory = container.uniqueThing.scope(Scope.Unique())
        #expect(factory() !== factory())
        let graph = container.uniqueThing.scope(Scope.Graph())
        #expect(graph() !== graph())
    }

    @Test func uniqueMakesANewInstanceEveryTime() {
        let container = Container()
        #expect(container.uniqueThing() !== container.uniqueThing())
        #expect(container.uniqueThing.unique() !== container.uniqueThing.unique())
    }

    @Test func cachedIsResetByTheManagerForItsScopeOnly() {
        let container = Container()
        let cached = container.cachedThing()
        let session = container.sessionThing()
        container.manager.reset(scope: .cached)
        #expect(container.cachedThing() !== cached)
        #expect(container.sessionThing() === session)
    }

    @Test func cachedScopeResetReachesEveryContainer() {
        let session = Scope.Cached()
        let first = Container()
        let second = Container()
        let firstSession = first.thing(in: session)
        let secondSession = second.thing(in: session)
        let other = first.otherSessionThing()
        session.reset()
        #expect(first.thing(in: session) !== firstSession)
        #expect(second.thing(in: session) !== secondSession)
        #expect(first.otherSessionThing() === other)
    }

    @Test func shortLivedContainersAreNotKeptAliveByTheirScopes() {
        let session = Scope.Cached()
        let survivor = Container()
        let kept = survivor.thing(in: session)
        var released: [Weak] = []
        for _ in 0..<5_000 {
            let container = Container()
            _ = container.thing(in: session)
            released.append(Weak(container))
        }
        #expect(released.allSatisfy { $0.object == nil })
        session.reset()
        #expect(survivor.thing(in: session) !== kept)
    }

    /// A container noted in the holders of several per-container scopes is taken out of each
    /// as it goes: none of them keeps its instances alive.
    @Test func aContainerKeepingInstancesOfSeveralScopesLetsGoOfThemAll() {
        weak var cached: Thing?
        weak var inSession: Thing?
        weak var inOtherSession: Thing?
        do {
            let container = Container()
            cached = container.cachedThing()
            inSession = container.sessionThing()
            inOtherSession = container.otherSessionThing()
            #expect(cached != nil && inSession != nil && inOtherSession != nil)
        }
        #expect(cached == nil)
        #expect(inSession == nil)
        #expect(inOtherSession == nil)
    }

    @Test func sharedLivesWhileSomeoneHoldsIt() {
        let container = Container()
        var held: Thing? = container.sharedThing()
        weak let weakHeld = held
        #expect(container.sharedThing() === held)
        held = nil
        #expect(weakHeld == nil)
        let fresh = container.sharedThing()
        #expect(container.sharedThing() === fresh)
    }

    @Test func sharedValueTypeBehavesAsUniqueAndWarnsOnce() {
        let container = Container()
        let lines = Locked<[String]>([])
        container.manager.logger = { line in lines.withLock { $0.append(line) } }
        let calls = Counter()
        let factory = container.sharedValue.decorator { _, created in
            if created { calls.increment() }
        }
        #expect(factory() == ValueThing(id: 1))
        _ = factory()
        #expect(calls.value == 2)
        if FactoryContext.current.isDebug {
            #expect(lines.current.count == 1)
            #expect(lines.current.first?.contains("value type") == true)
        }
    }

    @Test func singletonIsSharedAcrossContainersOfOneType() {
        Scope.withIsolatedSingletons {
            let first = Container()
            let second = Container()
            #expect(first.singletonThing() === second.singletonThing())
            first.manager.reset()
            #expect(first.singletonThing() === second.singletonThing())
        }
    }

    @Test func weakSingletonIsOnePerProcessWhileSomeoneHoldsIt() {
        Scope.withIsolatedSingletons {
            let first = Container()
            let second = Container()
            var held: Thing? = first.uniqueThing.weakSingleton()
            weak let weakHeld = held
            #expect(second.uniqueThing.weakSingleton() === held)
            first.manager.reset()
            #expect(first.uniqueThing.weakSingleton() === held)
            held = nil
            #expect(weakHeld == nil)
            let fresh = second.uniqueThing.weakSingleton()
            #expect(first.uniqueThing.weakSingleton() === fresh)
            Scope.weakSingleton.reset()
            #expect(first.uniqueThing.weakSingleton() !== fresh)
        }
    }

    @Test func weakSingletonValueTypeBehavesAsUnique() {
        Scope.withIsolatedSingletons {
            let counter = Counter()
            let value = Container().sharedValue.weakSingleton.register {
                counter.increment()
                return ValueThing(id: counter.value)
            }
            #expect(value() != value())
        }
    }

    @Test func singletonsOfDifferentContainerTypesDoNotCollide() {
        Scope.withIsolatedSingletons {
            let container = Container()
            let services = ServiceContainer()
            let fromServices = services.thing.singleton()
            let fromContainer = container.uniqueThing.singleton()
            #expect(fromServices !== fromContainer)
        }
    }

    @Test func singletonScopeResetMakesNewSingletons() {
        Scope.withIsolatedSingletons {
            let container = Container()
            let first = container.singletonThing()
            Scope.singleton.reset()
            #expect(container.singletonThing() !== first)
        }
    }

    @Test(arguments: [Scope.singleton, Scope.weakSingleton])
    func managerResetOfAProcessWideScopeLeavesItsInstancesAlone(scope: Scope) {
        Scope.withIsolatedSingletons {
            let container = Container()
            let factory = container.uniqueThing.scope(scope)
            let first = factory()
            // A container does not own them (FactoryKit's rule); the scope's reset() does.
            container.manager.reset(scope: scope)
            #expect(factory() === first)
            scope.reset()
            #expect(factory() !== first)
        }
    }

    @Test func isolatedSingletonsDoNotSeeEachOther() {
        let outer = Scope.withIsolatedSingletons { Container().singletonThing() }
        let inner = Scope.withIsolatedSingletons { Container().singletonThing() }
        #expect(outer !== inner)
    }

    @Test func registeringOverASingletonReplacesIt() {
        Scope.withIsolatedSingletons {
            let container = Container()
            let first = container.singletonThing()
            container.singletonThing.register { Thing(id: 9) }
            #expect(container.singletonThing() !== first)
            #expect(container.singletonThing().id == 9)
        }
    }

    @Test func scopeDescriptionsNameTheScope() {
        #expect("\(Scope.cached)" == "cached")
        #expect("\(Scope.graph)" == "graph")
        #expect("\(Scope.singleton)" == "singleton")
        #expect("\(Scope.shared)" == "shared")
        #expect("\(Scope.unique)" == "unique")
    }
}
