import Depot
import Testing

// The examples of the lifetime documents Depot's design starts from (../shared/reference), in
// Depot's API. Those of the containers document are in FactoryDocumentationExamplesTests, those
// of the lazy injection document in DelayedInjectionTests, lifetime scopes and children in
// ContainerRelationsTests, custom storages in CustomScopeTests.

/// DITranquillity's object graph: A -> B, A -> C, B -> E, B -> D, C -> D, C -> Z.
final class GraphA: @unchecked Sendable {
    let b: GraphB
    let c: GraphC
    init(b: GraphB, c: GraphC) {
        self.b = b
        self.c = c
    }
}
final class GraphB: @unchecked Sendable {
    let e: Thing
    let d: Thing
    init(e: Thing, d: Thing) {
        self.e = e
        self.d = d
    }
}
final class GraphC: @unchecked Sendable {
    let d: Thing
    let z: Thing
    init(d: Thing, z: Thing) {
        self.d = d
        self.z = z
    }
}

/// A container whose factories resolve D under the scope it is given.
final class GraphContainer: SharedContainer {
    static let shared = GraphContainer()
    let manager = ContainerManager()
    let dScope: Scope?
    init(dScope: Scope? = nil) { self.dScope = dScope }

    var a: Factory<GraphA> { self { GraphA(b: self.b(), c: self.c()) } }
    var b: Factory<GraphB> { self { GraphB(e: Thing(), d: self.d()) } }
    var c: Factory<GraphC> { self { GraphC(d: self.d(), z: Thing()) } }
    var d: Factory<Thing> {
        let d = self { Thing() }
        return dScope.map { d.scope($0) } ?? d
    }
}

/// Two holders of one dependency, resolved in one graph.
final class SharedPair: @unchecked Sendable {
    let left: Thing
    let right: Thing
    init(left: Thing, right: Thing) {
        self.left = left
        self.right = right
    }
}

extension Container {
    var sharedPair: Factory<SharedPair> {
        self { SharedPair(left: self.sharedThing(), right: self.sharedThing()) }
    }
    var defaultScopedThing: Factory<Thing> { self { Thing() } }
}

/// DITranquillity (v2/v3), "Lifetime" (000).
@Suite struct DITranquillityV2LifetimeTests {
    @Test func singleExistsBeforeTheFirstResolveReturns() {
        Scope.withIsolatedSingletons {
            let container = WarmContainer()
            _ = container.logger()
            #expect(container.order.current.first == "database")
        }
    }

    @Test func lazySingleIsMadeOnFirstUseOncePerProcess() {
        Scope.withIsolatedSingletons {
            let calls = Counter()
            let first = Container()
            let cat = first.uniqueThing.singleton.register {
                calls.increment()
                return Thing()
            }
            #expect(calls.value == 0)
            let made = cat()
            #expect(Container().uniqueThing.singleton() === made)
            #expect(calls.value == 1)
        }
    }

    @Test func weakSingleIsOneAtATimeAndMadeAgainOnceReleased() {
        Scope.withIsolatedSingletons {
            var cat: Thing? = Container().uniqueThing.weakSingleton()
            #expect(Container().uniqueThing.weakSingleton() === cat)
            weak let released = cat
            cat = nil
            #expect(released == nil)
            let next = Container().uniqueThing.weakSingleton()
            #expect(Container().uniqueThing.weakSingleton() === next)
        }
    }

    @Test func perDependencyIsANewObjectEveryTime() {
        let container = Container()
        #expect(container.uniqueThing() !== container.uniqueThing())
    }

    @Test func defaultLifetimeIsPerScopeWhenTheContainerSaysSo() {
        let container = Container()
        #expect(container.defaultScopedThing() !== container.defaultScopedThing())
        container.manager.defaultScope = .cached
        #expect(container.defaultScopedThing() === container.defaultScopedThing())
        let scope = container.newLifetimeScope()
        #expect(scope.defaultScopedThing() !== container.defaultScopedThing())
    }
}

/// DITranquillity (v4), "Lifetime" (001).
@Suite struct DITranquillityV4LifetimeTests {
    @Test func prototypeIsANewObjectEveryTime() {
        let container = Container()
        let cat1 = container.uniqueThing()
        let cat2 = container.uniqueThing()
        #expect(cat1 !== cat2)
    }

    @Test func prototypeMakesDTwiceInOneGraph() {
        let container = GraphContainer(dScope: .unique)
        let a1 = container.a()
        let a2 = container.a()
        #expect(a1.b.d !== a1.c.d)
        #expect(a1.b.d !== a2.b.d)
        #expect(a2.b.d !== a2.c.d)
    }

    @Test func objectGraphMakesDOncePerGraph() {
        let container = GraphContainer(dScope: .graph)
        let a1 = container.a()
        let a2 = container.a()
        #expect(a1.b.d === a1.c.d)
        #expect(a1.b.d !== a2.b.d)
        #expect(a2.b.d === a2.c.d)
    }

    @Test func perContainerStrongIsOnePerContainer() {
        let first = Container()
        let second = Container()
        #expect(first.cachedThing() === first.cachedThing())
        #expect(first.cachedThing() !== second.cachedThing())
    }

    @Test func perContainerWeakIsSharedWhileTheProgramHoldsIt() {
        let container = Container()
        var held: Thing? = container.sharedThing()
        #expect(container.sharedThing() === held)
        weak let released = held
        held = nil
        #expect(released == nil)
    }

    @Test func weakLifetimeNotHeldByTheProgramActsAsObjectGraph() {
        let container = Container()
        // Held by the object being built while its graph resolves...
        var pair: SharedPair? = container.sharedPair()
        #expect(pair?.left === pair?.right)
        // ...and made again for the next graph once nobody holds it.
        weak let first = pair?.left
        pair = nil
        #expect(first == nil)
        let next = container.sharedPair()
        #expect(next.left === next.right)
    }

    @Test func perRunStrongIsOnePerProcessWeakWhileHeld() {
        Scope.withIsolatedSingletons {
            #expect(Container().singletonThing() === Container().singletonThing())
            var held: Thing? = Container().uniqueThing.weakSingleton()
            #expect(Container().uniqueThing.weakSingleton() === held)
            weak let released = held
            held = nil
            #expect(released == nil)
        }
    }

    @Test func singleIsMadeOnceWhicheverContainersWarmItUp() {
        Scope.withIsolatedSingletons {
            let first = WarmContainer()
            let second = WarmContainer()
            first.warmUp(\.database)
            second.warmUp(\.database)
            let made = (first.order.current + second.order.current).filter { $0 == "database" }
            #expect(made.count == 1)
            #expect(first.database() === second.database())
        }
    }

    @Test func customScopeWithACachingStorageIsCleanedOnDemand() {
        let yourScope = Scope.Custom(name: "your scope")
        let container = Container()
        let cat = container.uniqueThing.scope(yourScope)
        let kept = cat()
        #expect(cat() === kept)
        yourScope.reset()
        #expect(cat() !== kept)
    }

    @Test func customScopeWithAWeakPolicyHoldsWeakly() {
        let yourScope = Scope.Custom(name: "your scope", reference: .weak)
        let container = Container()
        var held: Thing? = container.uniqueThing.scope(yourScope)()
        weak let released = held
        #expect(container.uniqueThing.scope(yourScope)() === held)
        held = nil
        #expect(released == nil)
    }

    @Test func defaultLifetimeCanBeChangedToObjectGraph() {
        let container = GraphContainer()
        container.manager.defaultScope = .graph
        let a = container.a()
        // Every factory naming no scope is graph-scoped now: D is made once per graph.
        #expect(a.b.d === a.c.d)
        #expect(container.a().b.d !== a.b.d)
    }
}

/// Swinject, "Object Scopes" (003).
@Suite struct SwinjectObjectScopeTests {
    @Test func transientIsNeverShared() {
        let container = Container()
        #expect(container.uniqueThing() !== container.uniqueThing())
    }

    @Test func graphSharesWithinOneResolutionOnly() {
        let container = Container()
        container.manager.defaultScope = .graph
        let root = container.graphRoot()
        // Every factory naming no scope is graph-scoped now: the leaf too.
        #expect(root.left === root.right)
        #expect(root.left.shared === root.right.shared)
        #expect(container.graphRoot().left !== root.left)
    }

    @Test func containerScopeIsSharedWithinTheContainerAndItsChildren() {
        let container = Container()
        let child = container.makeChild()
        #expect(container.cachedThing() === container.cachedThing())
        #expect(child.cachedThing() === container.cachedThing())
    }

    @Test func weakScopeIsSharedWhileStronglyReferenced() {
        let container = Container()
        var held: Thing? = container.sharedThing()
        #expect(container.makeChild().sharedThing() === held)
        weak let released = held
        held = nil
        #expect(released == nil)
    }

    @Test func valueTypesAreNeverSharedInTheWeakScope() {
        let container = Container()
        let counter = Counter()
        let value = container.sharedValue.register {
            counter.increment()
            return ValueThing(id: counter.value)
        }
        #expect(value() != value())
    }

    @Test func customScopeIsSharedLikeContainerAndCanBeReset() {
        let custom = Scope.Custom(name: "custom")
        let container = Container()
        let animal = container.uniqueThing.scope(custom)
        let kept = animal()
        #expect(animal() === kept)
        #expect(container.makeChild().uniqueThing.scope(custom)() === kept)
        custom.reset()
        let next = animal()
        #expect(next !== kept)
        #expect(animal() === next)
    }
}
