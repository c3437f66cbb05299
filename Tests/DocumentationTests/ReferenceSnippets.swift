import Depot
import DepotTesting
import Testing

// The snippets of the symbol pages (Sources/Depot/Depot.docc/Extensions): a small shop.

protocol Catalog: AnyObject, Sendable {}
final class LiveCatalog: Catalog {}
final class MockCatalog: Catalog {}
final class Basket: Sendable {}
final class Journal: Sendable {}
final class Pricing: Sendable {}
final class Wishlist: Sendable {}
final class Theater: Sendable {}
protocol Exporter: Sendable {}
final class LiveExporter: Exporter {}
final class MockExporter: Exporter {}

struct CatalogItem: Sendable {
    let id: Int
}

final class CatalogPage: Sendable {
    let catalog: any Catalog
    init(catalog: any Catalog) { self.catalog = catalog }
}

actor Ledger {
    let path: String
    private init(path: String) { self.path = path }
    static func open(_ path: String) async throws -> Ledger { Ledger(path: path) }
}

struct Invoice: Sendable {
    let id: Int
    static func load(_ id: Int) async throws -> Invoice { Invoice(id: id) }
}

final class PaymentRouter: Sendable {
    let started = StartCount()
    func start() { started.increment() }
}

/// Counts calls, from any thread.
final class StartCount: Sendable {
    private let count = Locked(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}

struct ReportRouter: Sendable {
    let server: String
    let count: Int
}

extension Container {
    var catalog: Factory<Catalog> { self { LiveCatalog() }.cached }
}

extension Container {
    var ledger: AsyncFactory<Ledger> {
        self { try await Ledger.open(self.ledgerPath()) }.singleton
    }
}

extension Container {
    var invoice: AsyncParameterFactory<Int, Invoice> {
        self { id in try await Invoice.load(id) }
    }
}

extension Container: AutoRegistering {
    public func autoRegister() {
        exporter.onTest { MockExporter() }
    }
}

extension Container {
    var catalogItem: ParameterFactory<Int, CatalogItem> {
        self { CatalogItem(id: $0) }
    }
}
final class CatalogScreen {
    @InjectedFactory(\.catalogItem) var makeItem
    func open(_ id: Int) -> CatalogItem { makeItem(id) }
}

extension Container: Resolving {}
final class TypedModel {
    @InjectedType var catalog: (any Catalog)?
}

final class CheckoutRouter {
    let payment: Lazy<PaymentRouter>
    init(payment: Lazy<PaymentRouter>) { self.payment = payment }
    func showPayment() { payment.value.start() }
}
extension Container {
    var checkoutRouter: Factory<CheckoutRouter> {
        self { CheckoutRouter(payment: self.paymentRouter.lazy) }
    }
}

final class LazyModel {
    @LazyInjected(\.catalog) var catalog
}

final class BillingContainer: SharedContainer {
    static let shared = BillingContainer()
    let manager = ContainerManager()
}
extension BillingContainer {
    var catalog: Factory<Catalog> { self { LiveCatalog() }.cached }
}

extension Container {
    var customer: ParameterFactory<Int, User> { self { User(id: $0, name: "Ada") } }
}

extension Container {
    var reportRouter: ParameterFactory<(String, Int), ReportRouter> {
        self { ReportRouter(server: $0.0, count: $0.1) }
    }
}

final class InboxRouter {
    let message: Provider<PaymentRouter>
    init(message: Provider<PaymentRouter>) { self.message = message }
    func showMessage() { message.value.start() }
}

extension Scope {
    static let checkout = Scope.Cached()
}

extension Scope {
    static let account = Scope.Custom(name: "account", reference: .strong, placement: .container)
}

extension Scope {
    static let wishlist = Scope.Custom(name: "wishlist")
}
extension Container {
    var wishlist: Factory<Wishlist> { self { Wishlist() }.scope(.wishlist) }
}

public final class StoreContainer: SharedContainer, ScopingContainer {
    public static let shared = StoreContainer()
    public let manager = ContainerManager()
    public init() {}
}

final class ShopContainer: TaskLocalContainer {
    @TaskLocal static var shared = ShopContainer()
    static var sharedTaskLocal: TaskLocal<ShopContainer> { $shared }
    let manager = ContainerManager()
}
extension ShopContainer {
    var basket: Factory<Basket> { self { Basket() }.cached }
}

final class CatalogModel {
    @Injected(\.catalog) var catalog  // from Container.shared
    @Injected(\ShopContainer.basket) var basket  // from another shared container
}

struct LedgerReport: Sendable {
    let ledger: Ledger
}
extension Container {
    var ledgerReport: Factory<LedgerReport> {
        self { LedgerReport(ledger: try! self.ledger.warmed()) }
    }
}

final class CheckoutCoordinator {
    @InjectedContainer var container: Container
}

final class BasketScreen {
    @DynamicInjected(\.basket) var basket
}

final class Seat {
    @WeakLazyInjected(\.theater) var theater: Theater?
}

extension Container {
    var ledgerPath: Factory<String> { self { "ledger.sqlite" } }
    var exporter: Factory<any Exporter> { self { LiveExporter() } }
    var basket: Factory<Basket> { self { Basket() }.cached }
    var journal: Factory<Journal> { self { Journal() }.singleton }
    var catalogPage: Factory<CatalogPage> { self { CatalogPage(catalog: self.catalog()) } }
    var paymentRouter: Factory<PaymentRouter> { self { PaymentRouter() } }
    var theater: Factory<Theater> { self { Theater() }.shared }
    var pricing: Factory<Pricing> { self { Pricing() }.cached.once() }
    var accountBasket: Factory<Basket> { self { Basket() }.scope(.account) }
    var checkoutBasket: Factory<Basket> { self { Basket() }.scope(.checkout) }
}

@Suite(.container)
struct ReferenceSnippets {
    @Test func aFactoryResolvesAndIsOverridden() {
        let catalog = Container.shared.catalog()
        Container.shared.catalog.register { MockCatalog() }  // override, e.g. in a test
        #expect(catalog is LiveCatalog)
        #expect(Container.shared.catalog() is MockCatalog)
    }

    @Test func asyncFactoriesResolveWithAwait() async throws {
        let ledger = try await Container.shared.ledger()
        #expect(ledger.path == "ledger.sqlite")
        #expect(try await Container.shared.ledger() === ledger)
        let invoice = try await Container.shared.invoice(42)
        #expect(invoice.id == 42)
    }

    @Test func autoRegisterRegistersATestOverride() {
        #expect(Container.shared.exporter() is MockExporter)
    }

    @Test func theCacheInventoryNamesWhatEachScopeKeeps() {
        let container = Container()
        _ = (container.catalog(), container.basket(), container.journal())
        let cached = container.manager.cachedInstances()
        // ["cached": ["basket<Basket>", "catalog<any Catalog>"], "singleton": ["journal<Journal>"]]
        #expect(cached["cached"] == ["basket<Basket>", "catalog<any Catalog>"])
        #expect(cached["singleton"] == ["journal<Journal>"])
    }

    @Test func pushAndPopPutBackWhatWasRegistered() {
        let mock = MockCatalog()
        Container.shared.catalog.register { mock }
        #expect(Container.shared.catalog() === mock)
        Container.shared.catalog.reset()
        Container.shared.manager.push()
        Container.shared.catalog.register { MockCatalog() }
        // ...
        Container.shared.manager.pop()
        #expect(Container.shared.catalog() is LiveCatalog)
    }

    @Test func aClockOfTheTestsOwnAgesInstances() {
        let container = Container()
        let now = Locked(0.0)  // any thread-safe box
        container.manager.clock = ContainerManager.Clock { now.withLock { $0 } }
        let basket = Factory(container) { Basket() }.cached.timeToLive(60)
        let first = basket()
        now.withLock { $0 = 61 }
        #expect(basket() !== first)
    }

    @Test func aContextOverrideAppliesInItsContexts() {
        let container = Container.shared
        container.catalog.context(.test, .preview) { MockCatalog() }
        #expect(container.catalog() is MockCatalog)
    }

    @Test func aWarmedAsyncInstanceReachesASynchronousFactory() async throws {
        let ledger = try await Container.shared.ledger()
        #expect(Container.shared.ledgerReport().ledger === ledger)
    }

    @Test func theResolutionDepthCanBeRaised() {
        let saved = ContainerManager.maximumResolutionDepth
        ContainerManager.maximumResolutionDepth = 10_000
        #expect(ContainerManager.maximumResolutionDepth == 10_000)
        ContainerManager.maximumResolutionDepth = saved
    }

    @Test func aManagerHoldsTheSettings() {
        let lines = Locked<[String]>([])
        Container.shared.manager.logger = { line in lines.withLock { $0.append(line) } }
        Container.shared.manager.defaultScope = .cached
        Container.shared.manager.trace = true
        Container.shared.manager.reset(scope: .cached)
        let basket = Container.shared.basket()
        #expect(Container.shared.basket() === basket)
        #expect(!lines.withLock { $0 }.isEmpty)
    }

    @Test func theDependencyGraphShowsWhatResolvedWhat() {
        let container = Container.shared
        container.manager.isRecordingDependencies = true
        _ = container.catalogPage()
        let mermaid = container.manager.dependencyGraph().mermaid()
        #expect(mermaid.contains("catalogPage"))
        #expect(mermaid.contains("n1 --> n0"))
    }

    @Test func anArgumentPicksAnOverride() {
        let container = Container.shared
        FactoryContext.setArg("mock", forKey: "catalog")
        container.catalog.onArg("mock") { MockCatalog() }
        defer { FactoryContext.removeArg(forKey: "catalog") }
        #expect(container.catalog() is MockCatalog)
    }

    @Test func onceLetsAnOutsideScopeWin() {
        Container.shared.pricing.scope(.unique)
        #expect(Container.shared.pricing() !== Container.shared.pricing())
    }

    @Test func propertyWrappersInject() {
        ShopContainer.$shared.withValue(ShopContainer()) {
            let model = CatalogModel()
            #expect(model.catalog is LiveCatalog)
            #expect(model.basket === ShopContainer.shared.basket())
            #expect(CatalogScreen().open(7).id == 7)
            #expect(LazyModel().catalog is LiveCatalog)
            let theater = Container.shared.theater()
            #expect(Seat().theater === theater)
        }
        #expect(TypedModel().catalog == nil)
        Container.shared.register { LiveCatalog() as any Catalog }
        let catalog: (any Catalog)? = Container.shared.resolve((any Catalog).self)
        #expect(catalog is LiveCatalog)
        #expect(TypedModel().catalog is LiveCatalog)
        #expect(CheckoutCoordinator().container === Container.shared)
        let screen = BasketScreen()
        let basket = screen.basket
        Container.shared.basket.reset()
        #expect(screen.basket !== basket)
    }

    @Test func lazyAndProviderResolveWhenUsed() {
        let router = Container.shared.checkoutRouter()
        #expect(!router.payment.isResolved)
        router.showPayment()
        router.showPayment()
        #expect(router.payment.value.started.value == 2)
        let inbox = InboxRouter(message: Container.shared.paymentRouter.provider)
        inbox.showMessage()
        #expect(inbox.message.value !== inbox.message.value)
    }

    @Test func aParameterFactoryAndItsProvider() {
        let container = Container.shared
        let customer = Container.shared.customer(42)
        #expect(customer == User(id: 42, name: "Ada"))
        let makeRouter = container.reportRouter.provider
        let router = makeRouter(("servername", 20))
        #expect(router.server == "servername" && router.count == 20)
    }

    @Test func scopesOfYourOwnResetOnTheirOwn() {
        let container = Container.shared
        let (account, checkout) = (container.accountBasket(), container.checkoutBasket())
        let wishlist = container.wishlist()
        Scope.account.reset()  // at logout: every container forgets its account instances
        #expect(container.accountBasket() !== account)
        #expect(container.checkoutBasket() === checkout)
        Scope.wishlist.reset()  // at logout, in every container
        #expect(container.wishlist() !== wishlist)
    }

    @Test func singletonsCanBeIsolated() async throws {
        let outer = Container.shared.journal()
        try await isolated {
            #expect(Container.shared.journal() !== outer)
        }
    }

    func isolated(_ body: @Sendable () async throws -> Void) async throws {
        try await Scope.withIsolatedSingletons {
            try await Container.$shared.withValue(Container()) { try await body() }
        }
    }

    @Test func relativesShareOrSeparateCaches() {
        let checkout = Container.shared.makeChild()
        checkout.catalog.register { MockCatalog() }
        let basket = checkout.basket()  // the parent's instance: the child did not register it
        #expect(basket === Container.shared.basket())
        #expect(checkout.catalog() is MockCatalog)
        #expect(Container.shared.catalog() is LiveCatalog)
        let lifetime = lifetimeBasket()
        #expect(lifetime !== Container.shared.basket())
        #expect(StoreContainer().newLifetimeScope().manager !== StoreContainer.shared.manager)
        #expect(BillingContainer.shared.catalog() === BillingContainer.shared.catalog())
    }

    func lifetimeBasket() -> Basket {
        let request = Container.shared.newLifetimeScope()
        let basket = request.basket()  // not Container.shared's: a .cached factory
        #expect(request.basket() === basket)
        return basket
    }
}
