import Depot
import Foundation
import Testing

final class ContextResetContainer: SharedContainer {
    static let shared = ContextResetContainer()
    let manager = ContainerManager()
}

final class ContextService: @unchecked Sendable {
    let name: String
    init(_ name: String) { self.name = name }
}

extension ContextResetContainer {
    var service: Factory<ContextService> { self { ContextService("live") }.singleton }
}

/// One rule for resets: what a reset removes, it drops the singletons of, context overrides
/// (`onTest` and the rest) included.
@Suite struct ContextResetTests {
    @Test(arguments: [FactoryResetOptions.context, .all])
    func aResetThatRemovesAContextOverrideDropsItsSingleton(options: FactoryResetOptions) {
        Scope.withIsolatedSingletons {
            let container = ContextResetContainer()
            container.service.onTest { ContextService("test") }
            #expect(container.service().name == "test")
            container.manager.reset(options: options)
            #expect(container.service().name == "live")
        }
    }

    @Test func aScopeResetKeepsTheContextAndItsSingleton() {
        Scope.withIsolatedSingletons {
            let container = ContextResetContainer()
            container.service.onTest { ContextService("test") }
            let made = container.service()
            container.manager.reset(options: .scope)
            #expect(container.service() === made)
        }
    }
}

extension ContextResetTests {
    @Test func aFactorysContextResetDropsTheSingletonItsContextMade() {
        Scope.withIsolatedSingletons {
            let container = ContextResetContainer()
            container.service.onTest { ContextService("test") }
            #expect(container.service().name == "test")
            container.service.reset(.context)
            #expect(container.service().name == "live")
        }
    }
}
