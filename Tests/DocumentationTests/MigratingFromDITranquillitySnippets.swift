import Depot
import DepotTesting
import Testing

// The snippets of MigratingFromDITranquillity.md.

protocol Motor: Sendable {}
protocol Starter: AnyObject, Sendable {}
final class Engine: Motor, Starter {}
final class Car: Sendable {
    let motor: any Motor
    init(motor: any Motor) { self.motor = motor }
}
final class Account: Sendable {}

extension Container {
    var motor: Factory<any Motor> { self { Engine() }.cached }
    var car: Factory<Car> { self { Car(motor: self.motor()) } }
}

extension Container {
    var engine: Factory<Engine> { self { Engine() }.singleton }
    var starter: Factory<any Starter> { alias(\.engine) { $0 } }
}

extension Scope {
    static let userSession = Scope.Custom(name: "user session", reference: .weak)
}
extension Container {
    var account: Factory<Account> { self { Account() }.scope(.userSession) }
}

final class LoginRouter: Sendable {}
final class NewsRouter: Sendable {
    let main: Provider<MainRouter>
    init(main: Provider<MainRouter>) { self.main = main }
}
final class ArticleRouter: Sendable {
    let server: String
    let id: Int
    init(server: String, id: Int) { (self.server, self.id) = (server, id) }
}

final class MainRouter: Sendable {
    let login: Lazy<LoginRouter>
    let news: Provider<NewsRouter>
    let article: ParameterProvider<(server: String, id: Int), ArticleRouter>
    init(
        login: Lazy<LoginRouter>, news: Provider<NewsRouter>,
        article: ParameterProvider<(server: String, id: Int), ArticleRouter>
    ) {
        (self.login, self.news, self.article) = (login, news, article)
    }
}
extension Container {
    var mainRouter: Factory<MainRouter> {
        self {
            MainRouter(
                login: self.loginRouter.lazy, news: self.newsRouter.provider,
                article: self.articleRouter.provider)
        }.graph
    }
    var loginRouter: Factory<LoginRouter> { self { LoginRouter() } }
    var newsRouter: Factory<NewsRouter> { self { NewsRouter(main: self.mainRouter.provider) } }
    var articleRouter: ParameterFactory<(server: String, id: Int), ArticleRouter> {
        self { ArticleRouter(server: $0.server, id: $0.id) }
    }
}

extension Container {
    /// Two resolves of an unscoped factory in one resolution.
    var loginRouters: Factory<(LoginRouter, LoginRouter)> {
        self { (self.loginRouter(), self.loginRouter()) }
    }
}

@Test(.container)
func theAppsRootsResolve() {
    let container = Container.shared
    container.manager.isRecordingDependencies = true
    _ = container.car()
    let graph = container.manager.dependencyGraph()
    #expect(graph.edges.contains { $0.from == "Container.car<Car>" })
}

@Suite(.container)
struct MigratingFromDITranquillitySnippets {
    @Test func severalAsBecomeAliases() {
        #expect(Container.shared.starter() === Container.shared.engine())
    }

    @Test func aFactoryPassesTheDependenciesOfWhatItMakes() {
        let car = Container.shared.car()
        #expect(car.motor as AnyObject === Container.shared.motor() as AnyObject)
    }

    @Test func theDefaultScopeIsTheContainersOwn() {
        let container = Container()
        let other = Container()
        container.manager.defaultScope = .graph
        let (left, right) = container.loginRouters()
        #expect(left === right)
        let (otherLeft, otherRight) = other.loginRouters()
        #expect(otherLeft !== otherRight)
    }

    @Test func aLifetimeScopeHasCachesOfItsOwnAndUseScopeSharesThem() {
        let request = Container.shared.newLifetimeScope()
        let other = Container()
        other.useScope(from: request)
        #expect(request.motor() as AnyObject !== Container.shared.motor() as AnyObject)
        #expect(other.motor() as AnyObject === request.motor() as AnyObject)
    }

    @Test func aWeakCustomScopeKeepsOneInstanceWhileHeldUntilReset() {
        let container = Container()
        var account: Account? = container.account()
        #expect(container.account() === account)
        #expect(Container().account() !== account)
        Scope.userSession.reset()
        #expect(container.account() !== account)
        weak var released: Account?
        released = account
        account = nil
        #expect(released == nil)
    }

    @Test func lazyProviderAndParameterProviderResolveInTheRoutersGraph() {
        let router = Container.shared.mainRouter()
        let article = router.article((server: "news.example", id: 7))
        #expect(article.server == "news.example")
        #expect(article.id == 7)
        #expect(!router.login.isResolved)
        #expect(router.login.value === router.login.value)
        #expect(router.news.value !== router.news.value)
        #expect(router.news.value.main.value === router)
        #expect(Container.shared.mainRouter() !== router)
    }
}
