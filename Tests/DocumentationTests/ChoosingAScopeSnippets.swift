import Depot
import DepotTesting
import Testing

// The snippets of ChoosingAScope.md; the "every third" storage is quoted from
// Examples/lifetimes-tour, which checks it.

final class ImageCache: Sendable {}
final class Cart: Sendable {}
final class Draft: Sendable {}
final class Database: Sendable {
    let isInMemory: Bool
    init(inMemory: Bool = false) { isInMemory = inMemory }
}
final class Metrics: Sendable {}

final class Token: Sendable {
    static func fetch() -> Token { Token() }
}

extension Container {
    var imageCache: Factory<ImageCache> { self { ImageCache() }.cached }
    var cart: Factory<Cart> { self { Cart() }.scope(.session) }
}
extension Scope {
    static let session = Scope.Custom(name: "session")
}

extension Scope {
    static let drafts = Scope.Custom(name: "drafts", reference: .weak, placement: .process)
}

final class AppContainer: SharedContainer, ScopingContainer {
    static let shared = AppContainer()
    let manager = ContainerManager()
    init() {}
    var database: Factory<Database> { self { Database() }.singleton }
    var metrics: Factory<Metrics> { self { Metrics() }.cached }
}

extension AppContainer: AutoRegistering {
    func autoRegister() {
        warmUp(\.database, \.metrics)
    }
}

extension Container {
    var token: Factory<Token> { self { Token.fetch() }.cached.timeToLive(300) }
}

@Suite(.container)
struct ChoosingAScopeSnippets {
    @Test func aCustomScopeKeepsItsInstanceUntilItIsReset() {
        let container = Container()
        let cart = container.cart()
        #expect(container.cart() === cart)
        #expect(container.imageCache() === container.imageCache())
        Scope.session.reset()
        #expect(container.cart() !== cart)
    }

    @Test func aWeakProcessScopeSharesAnInstanceAcrossContainersWhileItIsHeld() {
        let drafts = { (container: Container) in Factory(container) { Draft() }.scope(.drafts) }
        var held: Draft? = drafts(Container())()
        #expect(drafts(Container())() === held)
        weak var released: Draft?
        released = held
        held = nil
        #expect(released == nil)
    }

    @Test func warmUpInAutoRegisterMakesInstancesBeforeTheFirstResolveReturns() {
        let container = AppContainer()
        #expect(container.manager.cachedInstances().isEmpty)
        _ = container.metrics()
        let cached = container.manager.cachedInstances()
        #expect(cached["singleton"] == ["database<Database>"])
        #expect(cached["cached"] == ["metrics<Metrics>"])
    }

    @Test func anInstanceOlderThanItsTimeToLiveIsReplaced() {
        let now = Locked(0.0)
        let container = Container()
        container.manager.clock = ContainerManager.Clock { now.withLock { $0 } }
        let token = container.token()
        now.withLock { $0 = 299 }
        #expect(container.token() === token)
        now.withLock { $0 = 301 }
        #expect(container.token() !== token)
    }
}
