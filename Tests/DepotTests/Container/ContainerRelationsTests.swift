import Depot
import Foundation
import Testing

final class Cat: @unchecked Sendable {
    let name: String
    init(name: String = "cat") { self.name = name }
}

final class Owner: @unchecked Sendable {
    let cat: Cat
    init(cat: Cat) { self.cat = cat }
}

extension Container {
    var cat: Factory<Cat> { self { Cat() }.cached }
    var owner: Factory<Owner> { self { Owner(cat: self.cat()) }.cached }
    var uniqueOwner: Factory<Owner> { self { Owner(cat: self.cat()) } }
}

/// A container that makes its singletons before its first resolve returns.
final class WarmContainer: SharedContainer, ScopingContainer, AutoRegistering {
    static let shared = WarmContainer()
    let manager = ContainerManager()
    let order = Locked<[String]>([])

    init() {}

    func autoRegister() {
        logger.register {
            self.order.withLock { $0.append("logger") }
            return Thing(id: 2)
        }
        warmUp(\.database, \.logger)
    }

    var database: Factory<Thing> {
        self {
            self.order.withLock { $0.append("database") }
            return Thing(id: 1)
        }.singleton
    }
    var logger: Factory<Thing> {
        self {
            self.order.withLock { $0.append("logger") }
            return Thing(id: 0)
        }.cached
    }
}

extension AutoContainer: ScopingContainer {}

@Suite struct LifetimeScopeTests {
    // DITranquillity, "Lifetime" (000): perScope with newLifeTimeScope().
    @Test func perScopeIsOnePerLifetimeScope() {
        let container = Container()
        let cat1 = container.cat()
        let equalsCat1 = container.cat()
        let newContainer = container.newLifetimeScope()
        let cat2 = newContainer.cat()
        let equalsCat2 = newContainer.cat()
        #expect(cat1 === equalsCat1)
        #expect(cat2 === equalsCat2)
        #expect(cat1 !== cat2)
    }

    @Test func lifetimeScopeCopiesRegistrationsAndSettingsNotCaches() {
        let container = Container()
        container.cat.register { Cat(name: "override") }
        container.manager.defaultScope = .cached
        let scope = container.newLifetimeScope()
        #expect(scope.cat().name == "override")
        #expect(scope.manager.defaultScope === Scope.cached)
        // A copy: later registrations stay in their own container.
        scope.cat.register { Cat(name: "scoped") }
        #expect(container.cat().name == "override")
        #expect(scope.cat().name == "scoped")
    }

    @Test func lifetimeScopeRunsClosuresWithItselfAsTheContainer() {
        let container = Container()
        let scope = container.newLifetimeScope()
        let owner = scope.owner()
        #expect(owner.cat === scope.cat())
        #expect(owner.cat !== container.cat())
    }

    @Test func lifetimeScopesShareSingletons() {
        Scope.withIsolatedSingletons {
            let container = Container()
            #expect(container.newLifetimeScope().singletonThing() === container.singletonThing())
        }
    }

    // DITranquillity, "Lifetime" (000): moving the scope with useScope(from:).
    @Test func useScopeSharesTheOtherContainersCaches() {
        let container = Container()
        let container2 = Container()
        container2.useScope(from: container)
        let cat1 = container.cat()
        let cat2 = container2.cat()
        #expect(cat1 === cat2)
        #expect(container2.sharedThing() === container.sharedThing())
    }

    @Test func useScopeKeepsRegistrationsApartAndSharesResets() {
        let container = Container()
        let container2 = Container()
        container2.useScope(from: container)
        container2.uniqueThing.register { Thing(id: 2) }
        #expect(container.uniqueThing().id == 0)
        #expect(container2.uniqueThing().id == 2)
        let cat = container.cat()
        container2.manager.reset(scope: .cached)
        #expect(container.cat() !== cat)
        let next = container2.cat()
        container2.cat.reset(.scope)
        #expect(container.cat() !== next)
    }

    @Test func useScopeFollowsTheContainerWhoseCachesTheOtherUses() {
        let first = Container()
        let second = Container()
        let third = Container()
        second.useScope(from: first)
        third.useScope(from: second)
        #expect(third.cat() === first.cat())
    }

    @Test func useScopeReachesCustomScopesAndScopeResets() {
        let session = Scope.Custom(name: "session")
        let container = Container()
        let container2 = Container()
        container2.useScope(from: container)
        let user = container.uniqueThing.scope(session)()
        #expect(container2.uniqueThing.scope(session)() === user)
        session.reset()
        #expect(container2.uniqueThing.scope(session)() !== user)
    }
}

@Suite struct ChildContainerTests {
    // Swinject, "Object Scopes" (003): a .container instance is shared within the container and
    // its child containers.
    @Test func childSharesItsParentsCachedInstances() {
        let parent = Container()
        let child = parent.makeChild()
        #expect(child.cat() === parent.cat())
        #expect(child.sharedThing() === parent.sharedThing())
    }

    @Test func childResolvesWhatItDidNotRegisterExactlyAsItsParent() {
        let parent = Container()
        parent.cat.register { Cat(name: "parent's") }
        let child = parent.makeChild()
        #expect(child.cat().name == "parent's")
        // Registrations the parent makes later reach the child.
        parent.uniqueThing.register { Thing(id: 5) }
        #expect(child.uniqueThing().id == 5)
    }

    @Test func childsOwnRegistrationsStayInTheChild() {
        let parent = Container()
        let child = parent.makeChild()
        child.cat.register { Cat(name: "child's") }
        #expect(child.cat().name == "child's")
        #expect(parent.cat().name == "cat")
        #expect(child.cat() === child.cat())
        #expect(child.cat() !== parent.cat())
    }

    @Test func parentsFactoriesNeverSeeTheChildsOverrides() {
        let parent = Container()
        let child = parent.makeChild()
        child.cat.register { Cat(name: "child's") }
        // `owner` is the parent's: it is made (and cached) with the parent's cat, whichever
        // container asked first.
        let owner = child.owner()
        #expect(owner.cat.name == "cat")
        #expect(parent.owner() === owner)
        #expect(child.uniqueOwner().cat === parent.cat())
        // Registering it in the child makes it the child's, with the child's dependencies.
        child.owner.register { Owner(cat: child.cat()) }
        #expect(child.owner().cat.name == "child's")
    }

    @Test func resettingAChildNeverTouchesItsParent() {
        let parent = Container()
        parent.uniqueThing.register { Thing(id: 1) }
        let child = parent.makeChild()
        let cat = parent.cat()
        child.cat.register { Cat(name: "child's") }
        let childCat = child.cat()
        child.manager.reset()
        #expect(parent.cat() === cat)
        #expect(parent.uniqueThing().id == 1)
        #expect(child.cat() === cat)
        #expect(child.cat() !== childCat)
        child.manager.reset(scope: .cached)
        #expect(parent.cat() === cat)
    }

    @Test func grandchildrenResolveThroughEveryAncestor() {
        let root = Container()
        let child = root.makeChild()
        child.cat.register { Cat(name: "child's") }
        let grandchild = child.makeChild()
        #expect(grandchild.cat() === child.cat())
        #expect(grandchild.owner() === root.owner())
        #expect(grandchild.owner().cat.name == "cat")
    }

    @Test func childNeverRunsAutoRegister() {
        let parent = AutoContainer()
        _ = parent.service()
        let child = parent.makeChild()
        #expect(child.service().name == "auto")
        child.manager.reset()
        #expect(child.service().name == "auto")
        #expect(parent.autoRegistrations.value == 1)
        #expect(child.autoRegistrations.value == 0)
    }

    @Test func childOfAChildKeepsGraphInstancesOfOneResolution() {
        let parent = Container()
        let child = parent.makeChild()
        let root = child.graphRoot()
        #expect(root.left.shared === root.right.shared)
    }

    @Test func childrenResolveConcurrentlyWithOneParentInstance() {
        let parent = Container()
        let calls = Counter()
        parent.cat.register {
            calls.increment()
            usleep(200)
            return Cat()
        }
        let children = (0..<8).map { _ in parent.makeChild() }
        let cats = runOnThreads(32) { index in children[index % 8].cat() }
        #expect(calls.value == 1)
        #expect(Set(cats.map(ObjectIdentifier.init)).count == 1)
    }
}

@Suite struct WarmUpTests {
    @Test func warmUpCreatesNowOnceAndInOrder() {
        let container = Container()
        let order = Locked<[String]>([])
        container.cat.register {
            order.withLock { $0.append("cat") }
            return Cat()
        }
        container.owner.register {
            order.withLock { $0.append("owner") }
            return Owner(cat: container.cat())
        }
        container.warmUp(\.owner, \.cat)
        #expect(order.current == ["owner", "cat"])
        _ = container.owner()
        _ = container.cat()
        #expect(order.current == ["owner", "cat"])
    }

    // DITranquillity, "Lifetime" (001): `single` objects made by initializeSingletonObjects().
    @Test func singletonsWarmedUpInAutoRegisterExistBeforeTheFirstResolveReturns() {
        Scope.withIsolatedSingletons {
            let container = WarmContainer()
            _ = container.database()
            #expect(container.order.current == ["database", "logger"])
            #expect(container.logger().id == 2)
            // Another container of the type warms up too, but the singleton exists once.
            let other = WarmContainer()
            _ = other.logger()
            #expect(other.order.current == ["logger"])
        }
    }
}
