import Depot
import DepotTesting
import Foundation
import Testing

// DITranquillity, "Lazy injection" (004): the routers.

final class LoginRouter: @unchecked Sendable {}
final class NotificationRouter: @unchecked Sendable {}
final class TasksRouter: @unchecked Sendable {}

final class NewsRouter: @unchecked Sendable {
    // "Never do this": a back reference to the parent, held weakly here.
    weak var mainRouter: MainRouter?
    let serverName: String
    let newsCount: Int
    init(mainRouter: MainRouter?, serverName: String = "", newsCount: Int = 0) {
        self.mainRouter = mainRouter
        self.serverName = serverName
        self.newsCount = newsCount
    }
}

final class MainRouter: @unchecked Sendable {
    let loginRouter: Lazy<LoginRouter>
    let notificationRouter: Provider<NotificationRouter>
    let newsRouter: Provider<NewsRouter>
    let tasksRouter: Provider<TasksRouter>
    let argumentNewsRouter: ParameterProvider<(String, Int), NewsRouter>

    init(
        loginRouter: Lazy<LoginRouter>, notificationRouter: Provider<NotificationRouter>,
        newsRouter: Provider<NewsRouter>, tasksRouter: Provider<TasksRouter>,
        argumentNewsRouter: ParameterProvider<(String, Int), NewsRouter>
    ) {
        self.loginRouter = loginRouter
        self.notificationRouter = notificationRouter
        self.newsRouter = newsRouter
        self.tasksRouter = tasksRouter
        self.argumentNewsRouter = argumentNewsRouter
    }

    func showNews() -> NewsRouter { newsRouter.value }
}

/// Holds its dependencies through property wrappers made while it is resolved.
final class WrappedRouter: @unchecked Sendable {
    @LazyInjected(\.mainRouter) var lazyMain
    @DynamicInjected(\.mainRouter) var dynamicMain
    @WeakLazyInjected(\.mainRouter) var weakMain
}

extension Container {
    var mainRouter: Factory<MainRouter> {
        self {
            MainRouter(
                loginRouter: self.loginRouter.lazy,
                notificationRouter: self.notificationRouter.provider,
                newsRouter: self.newsRouter.provider, tasksRouter: self.tasksRouter.provider,
                argumentNewsRouter: self.argumentNewsRouter.provider)
        }.graph
    }
    var loginRouter: Factory<LoginRouter> { self { LoginRouter() } }
    var notificationRouter: Factory<NotificationRouter> { self { NotificationRouter() } }
    var tasksRouter: Factory<TasksRouter> { self { TasksRouter() } }
    var newsRouter: Factory<NewsRouter> { self { NewsRouter(mainRouter: self.mainRouter()) } }
    var argumentNewsRouter: ParameterFactory<(String, Int), NewsRouter> {
        self { NewsRouter(mainRouter: self.mainRouter(), serverName: $0.0, newsCount: $0.1) }
    }
    /// A graph-scoped part, and the provider of it made in a graph of its own.
    var graphPart: Factory<Thing> { self { Thing() }.graph }
    var graphPartProvider: Factory<Provider<Thing>> { self { self.graphPart.provider } }
    /// Made in a graph, with wrappers that join it.
    var wrappedRouter: Factory<WrappedRouter> {
        self {
            _ = self.mainRouter()
            return WrappedRouter()
        }
    }
    var graphHolder: Factory<GraphHolder> {
        self { GraphHolder(thing: self.graphThing(), lazy: self.graphThing.lazy) }
    }
}

final class GraphHolder: @unchecked Sendable {
    let thing: Thing
    let lazy: Lazy<Thing>
    init(thing: Thing, lazy: Lazy<Thing>) {
        self.thing = thing
        self.lazy = lazy
    }
}

@Suite struct DelayedInjectionTests {
    @Test func lazyResolvesOnFirstUseAndKeepsTheObject() {
        let container = Container()
        let calls = Counter()
        container.loginRouter.register {
            calls.increment()
            return LoginRouter()
        }
        let lazy = container.loginRouter.lazy
        #expect(calls.value == 0)
        #expect(!lazy.isResolved)
        let first = lazy.value
        #expect(lazy() === first)
        #expect(lazy.isResolved)
        let copy = lazy
        #expect(copy.value === first)
        #expect(calls.value == 1)
    }

    @Test func providerAsksTheContainerEveryTime() {
        let container = Container()
        let provider = container.tasksRouter.provider
        #expect(provider.value !== provider())
        let cached = container.cat.provider
        #expect(cached.value === container.cat())
        container.cat.reset(.scope)
        #expect(cached.value === container.cat())
    }

    @Test func lazyInjectionsDoNotCreateNewGraphs() {
        let container = Container()
        let mainRouter = container.mainRouter()
        // The news router reaches its parent, not a new main router.
        #expect(mainRouter.showNews().mainRouter === mainRouter)
        #expect(mainRouter.showNews() !== mainRouter.showNews())
        // Another resolve is another graph.
        let other = container.mainRouter()
        #expect(other !== mainRouter)
        #expect(other.showNews().mainRouter === other)
    }

    @Test func providerWithArgumentsPassesThemAndStaysInTheGraph() {
        let container = Container()
        let mainRouter = container.mainRouter()
        let router = mainRouter.argumentNewsRouter(("servername", 20))
        #expect(router.serverName == "servername")
        #expect(router.newsCount == 20)
        #expect(router.mainRouter === mainRouter)
        #expect(mainRouter.argumentNewsRouter.value(("other", 1)).serverName == "other")
    }

    @Test func joiningAGraphNeverKeepsItsInstancesAlive() {
        let container = Container()
        var mainRouter: MainRouter? = container.mainRouter()
        weak let released = mainRouter
        let provider = mainRouter!.newsRouter
        mainRouter = nil
        #expect(released == nil)
        // Once the graph's instance is gone, the provider's resolve makes a new one.
        let news = provider.value
        #expect(news.mainRouter == nil)
    }

    @Test func lazyKeepsNoGraphInstanceOfTheResolutionItCameFrom() {
        let container = Container()
        var holder: GraphHolder? = container.graphHolder()
        weak let thing = holder?.thing
        let lazy = holder!.lazy
        holder = nil
        #expect(thing == nil)
        // The graph no longer holds the thing: the lazy makes a new one.
        let resolved = lazy.value
        #expect(resolved.id == 0)
    }

    @Test func lazyJoinsTheGraphWhileItsInstancesLive() {
        let container = Container()
        let holder = container.graphHolder()
        #expect(holder.lazy.value === holder.thing)
    }

    @Test func lazyMadeOutsideAResolutionStartsAGraphOfItsOwn() {
        let container = Container()
        let lazy = container.graphRoot.lazy
        let root = lazy.value
        #expect(root.left.shared === root.right.shared)
        #expect(container.graphRoot().left.shared !== root.left.shared)
    }

    @Test func providerCalledInsideAnotherResolutionKeepsToItsOwnGraph() {
        let container = Container()
        let mainRouter = container.mainRouter()
        let inOther = container.uniqueThing.register {
            #expect(mainRouter.showNews().mainRouter === mainRouter)
            return Thing()
        }
        _ = inOther()
    }

    @Test func lazyResolvesOnceUnderConcurrentFirstAccess() {
        let container = Container()
        let calls = Counter()
        container.loginRouter.register {
            calls.increment()
            usleep(200)
            return LoginRouter()
        }
        for _ in 0..<10 {
            let lazy = container.loginRouter.lazy
            let routers = runOnThreads(32) { _ in lazy.value }
            #expect(Set(routers.map(ObjectIdentifier.init)).count == 1)
        }
        #expect(calls.value == 10)
    }

    @Test func providersOfOneGraphResolveConcurrently() {
        let container = Container()
        let mainRouter = container.mainRouter()
        let parents = runOnThreads(32) { _ in
            (0..<20).map { _ in mainRouter.showNews().mainRouter === mainRouter }
        }
        #expect(parents.joined().allSatisfy { $0 })
    }

    @Test func providersOfOneGraphMakeItsInstanceOnceAcrossThreads() {
        let container = Container()
        let calls = Counter()
        container.graphPart.register {
            calls.increment()
            usleep(20_000)
            return Thing()
        }
        for _ in 0..<5 {
            let provider = container.graphPartProvider()
            let parts = runOnThreads(8) { _ in provider() }
            #expect(Set(parts.map(ObjectIdentifier.init)).count == 1)
        }
        #expect(calls.value == 5)
    }

    @Test func parameterProviderMakesANewValuePerCall() {
        let container = Container()
        let provider = container.thingWithID.provider
        #expect(provider(1).id == 1)
        #expect(provider.value(2).id == 2)
        #expect(provider(1) !== provider(1))
    }
}

@Suite(.container) struct DelayedWrapperTests {
    @Test func lazyAndDynamicInjectedJoinTheGraphTheyWereMadeIn() {
        let container = Container.shared
        let wrapped = container.wrappedRouter()
        let main = wrapped.lazyMain
        #expect(wrapped.dynamicMain === main)
        #expect(wrapped.weakMain === main)
    }

    @Test func wrappersMadeOutsideAResolutionResolveInGraphsOfTheirOwn() {
        let wrapped = WrappedRouter()
        #expect(wrapped.lazyMain !== wrapped.dynamicMain)
    }

    @Test func injectedFactoryIsTheFactoryCalledWithItsParameter() {
        final class Screen {
            @InjectedFactory(\.thingWithID) var makeThing
            @InjectedFactory(\ServiceContainer.parameterThing) var makeServiceThing
        }
        let screen = Screen()
        #expect(screen.makeThing(4).id == 4)
        #expect(screen.makeThing(5) !== screen.makeThing(5))
        #expect(screen.makeServiceThing(6).id == 6)
        Container.shared.thingWithID.register { Thing(id: $0 * 10) }
        #expect(screen.makeThing(4).id == 40)
    }
}

extension ServiceContainer {
    var parameterThing: ParameterFactory<Int, Thing> { self { Thing(id: $0) } }
}
