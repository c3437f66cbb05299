import Depot
import DepotTesting
import Testing

// The snippets of GettingStarted.md.

final class UserStore: Sendable {
    let api: any API
    init(api: any API) { self.api = api }
}

final class UserModel: Sendable {
    let id: Int
    let name: String
    init(id: Int, api: any API) {
        self.id = id
        name = api.user(id: id).name
    }
}

protocol PaymentGateway: Sendable {}
final class CardGateway: PaymentGateway {}

protocol Analytics: Sendable {
    func log(_ event: String)
}
final class ConsoleAnalytics: Analytics {
    func log(_ event: String) { print(event) }
}

extension Container {
    var userStore: Factory<UserStore> { self { UserStore(api: self.api()) } }
}

extension Container {
    var session: Factory<Session> { self { Session() }.shared }
}

final class SettingsModel {
    @Injected(\.userStore) var store  // when the model is made
    @LazyInjected(\.api) var api  // on first access, then kept
    @WeakLazyInjected(\.session) var session  // on first access, held weakly
}

extension Container {
    var userModel: ParameterFactory<Int, UserModel> {
        self { id in UserModel(id: id, api: self.api()) }
    }
}

final class PaymentsContainer: SharedContainer {
    static let shared = PaymentsContainer()
    let manager = ContainerManager()
}
extension PaymentsContainer {
    var gateway: Factory<any PaymentGateway> { self { CardGateway() }.singleton }
}
final class CheckoutModel {
    @Injected(\PaymentsContainer.gateway) var gateway
}

extension Container {
    var analytics: Factory<(any Analytics)?> { promised() }
}

@Suite(.container)
struct GettingStartedSnippets {
    @Test func aFactoryResolvesItsDependenciesFromItsContainer() {
        let store = Container.shared.userStore()
        #expect(store.api is LiveAPI)
        #expect(store.api as AnyObject === Container.shared.api() as AnyObject)
    }

    @Test func propertyWrappersResolveWhenTheirNamesSay() {
        let model = SettingsModel()
        #expect(model.$api.resolvedOrNil() == nil)
        #expect(model.api as AnyObject === Container.shared.api() as AnyObject)
        #expect(model.$api.resolvedOrNil() != nil)
        var session: Session? = model.session
        #expect(session != nil)
        #expect(model.session === session)
        session = nil
        #expect(model.session == nil)
    }

    @Test func aParameterFactoryTakesItsParameterWhenResolved() {
        let model = Container.shared.userModel(42)
        #expect(model.id == 42)
        #expect(model.name == "Ada")
    }

    @Test func registeringReplacesTheFactoryAndItsCachedInstance() {
        let live = Container.shared.api()
        Container.shared.api.register { MockAPI() }
        Container.shared.api.onPreview { MockAPI() }
        #expect(Container.shared.api() is MockAPI)
        #expect(Container.shared.api() as AnyObject !== live as AnyObject)
        Container.shared.manager.reset()
        #expect(Container.shared.api() is LiveAPI)
    }

    @Test func aContainerOfYourOwnIsNamedInTheKeyPath() {
        let model = CheckoutModel()
        #expect(model.gateway is CardGateway)
        #expect(model.gateway as AnyObject === PaymentsContainer.shared.gateway() as AnyObject)
    }

    @Test func aPromisedFactoryResolvesWhatTheAppRegistered() {
        Container.shared.manager.promiseTriggersError = false
        #expect(Container.shared.analytics() == nil)
        Container.shared.analytics.register { ConsoleAnalytics() }
        #expect(Container.shared.analytics() is ConsoleAnalytics)
    }
}
