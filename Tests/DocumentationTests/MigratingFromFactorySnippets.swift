import Depot
import DepotTesting
import Testing

// The snippets of MigratingFromFactory.md.

final class MockAnalytics: Analytics {
    func log(_ event: String) {}
}

@Suite(.container)
struct MigratingFromFactorySnippets {
    @Test func aScopeAppliedFromOutsideBeforeRegisterIsKept() {
        let container = Container()
        container.analytics.scope(.singleton).register { MockAnalytics() }
        let first = container.analytics()
        #expect(first is MockAnalytics)
        #expect(container.analytics() as AnyObject === first as AnyObject)
    }

    @Test func aPropertyModifierFromOutsideChangesOnlyTheValue() {
        let container = Container()
        container.manager.promiseTriggersError = false
        container.userStore.register { UserStore(api: MockAPI()) }
        _ = container.userStore.singleton
        #expect(container.userStore() !== container.userStore())
        container.userStore.scope(.singleton)
        #expect(container.userStore() === container.userStore())
    }
}
