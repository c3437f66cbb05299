import Depot
import DepotTesting
import Foundation
import Testing

// Behaviour that FactoryKit users' tests rely on, written as they write it.

protocol ReportingType: AnyObject {
    var id: UUID { get }
}

final class ReportingService: ReportingType {
    let id = UUID()
}

extension Container {
    var reporting: Factory<ReportingType> { self { ReportingService() } }
    var cachedReporting: Factory<ReportingType> { self { ReportingService() }.cached }
    var onceCachedReporting: Factory<ReportingType> { self { ReportingService() }.cached.once() }
    var onceScopedReporting: Factory<ReportingType> {
        self { ReportingService() }.scope(.cached).once()
    }
    var optionalService: Factory<ReportingType?> { self { ReportingService() } }
    /// FactoryKit's testFactoryOnceOnTest: the declaration's test context applies once.
    var onceOnTestService: Factory<Service> {
        self { LiveService() }.onTest { MockService("declared") }.once()
    }
    var onTestService: Factory<Service> {
        self { LiveService() }.onTest { MockService("declared") }
    }
    var sharedOptionalService: Factory<ReportingType?> { self { ReportingService() }.shared }
    var singletonService: Factory<ReportingService> { self { ReportingService() }.singleton }
}

/// A container whose `autoRegister()` registers over a singleton.
final class AutoRegisteringContainer: SharedContainer, AutoRegistering {
    @TaskLocal static var shared = AutoRegisteringContainer()
    let manager = ContainerManager()
    var service: Factory<ReportingService> { self { ReportingService() }.singleton }
    func autoRegister() {
        service.register { ReportingService() }
    }
}

/// A container that resolves by type, as FactoryKit's `Resolving` does.
final class ResolvingContainer: SharedContainer, Resolving {
    static let shared = ResolvingContainer()
    let manager = ContainerManager()
}

@Suite(.container)
struct FactoryKitBehaviourTests {
    @Test func timeToLiveAppliedFromATestTakesEffect() {
        let now = Locked(0.0)
        Container.shared.manager.clock = ContainerManager.Clock { now.current }
        Container.shared.cachedReporting.timeToLive(0.01)
        let first = Container.shared.cachedReporting()
        #expect(Container.shared.cachedReporting() === first)
        now.withLock { $0 = 1 }
        #expect(Container.shared.cachedReporting() !== first)
    }

    @Test func scopeAppliedBeforeRegisterTakesEffect() {
        let container = Container()
        container.reporting.scope(.cached).register { ReportingService() }
        #expect(container.reporting() === container.reporting())
    }

    @Test func scopeAppliedToAResolvingFactoryTakesEffect() {
        let container = ResolvingContainer()
        container.register { ReportingService() }
        #expect(
            container.resolve(ReportingService.self) !== container.resolve(ReportingService.self))
        container.factory(ReportingService.self)?.scope(.cached)
        #expect(
            container.resolve(ReportingService.self) === container.resolve(ReportingService.self))
    }

    @Test func theDeclarationsOwnModifiersWin() {
        let container = Container()
        container.cachedReporting.scope(.unique)
        #expect(container.cachedReporting() === container.cachedReporting())
    }

    @Test func onceLetsLaterOutsideModifiersStick() {
        let container = Container()
        #expect(container.onceCachedReporting() === container.onceCachedReporting())
        container.onceCachedReporting.scope(.unique)
        #expect(container.onceCachedReporting() !== container.onceCachedReporting())
    }

    @Test func onceRegistersTheDeclarationsContextsOnceSoATestsOverrideWins() {
        let container = Container()
        #expect(container.onceOnTestService().name == "declared")
        container.onceOnTestService.onTest { MockService("test's") }
        #expect(container.onceOnTestService().name == "test's")
        #expect(container.onceOnTestService().name == "test's")
    }

    @Test func resettingContextsClearsOnceRegisteredContextsUntilEverythingIsReset() {
        let container = Container()
        #expect(container.onceOnTestService().name == "declared")
        container.manager.reset(options: .context)
        #expect(container.onceOnTestService().name == "live")
        #expect(container.onceOnTestService().name == "live")
        // A factory's own context reset is the same.
        container.onceOnTestService.onTest { MockService("test's") }
        #expect(container.onceOnTestService().name == "test's")
        container.onceOnTestService.reset(.context)
        #expect(container.onceOnTestService().name == "live")
        // Forgetting everything forgets that they were registered: the declaration's apply again.
        container.manager.reset(options: .all)
        #expect(container.onceOnTestService().name == "declared")
    }

    @Test func withoutOnceTheDeclarationsContextsApplyOnEveryRead() {
        let container = Container()
        container.onTestService.onTest { MockService("test's") }
        #expect(container.onTestService().name == "declared")
        container.manager.reset(options: .context)
        #expect(container.onTestService().name == "declared")
    }

    @Test func aDeclarationsMethodModifierStaysInTheDeclaration() {
        // Were the declaration's `scope(.cached)` kept in the container like an outside one,
        // every resolve would put it back over the test's `.unique`.
        let container = Container()
        #expect(container.onceScopedReporting() === container.onceScopedReporting())
        container.onceScopedReporting.scope(.unique)
        #expect(container.onceScopedReporting() !== container.onceScopedReporting())
    }

    @Test(arguments: [Scope.cached, Scope.shared, Scope.singleton])
    func nilIsNeverCached(scope: Scope) {
        let container = Container()
        let calls = Locked(0)
        let factory = container.optionalService.register {
            calls.withLock { $0 += 1 }
            return calls.current < 3 ? nil : ReportingService()
        }.scope(scope)
        #expect(factory() == nil)
        #expect(factory() == nil)
        let made = factory()
        #expect(made != nil)
        #expect(factory() === made)
        #expect(calls.current == 3)
    }

    @Test func sharedHoldsAnOptionalsInstanceWeakly() {
        let container = Container()
        var held = container.sharedOptionalService()
        #expect(held != nil)
        #expect(container.sharedOptionalService() === held)
        let id = held?.id
        held = nil
        #expect(container.sharedOptionalService()?.id != id)
    }

    @Test func managerResetOfTheSingletonScopeLeavesSingletonsAlone() {
        let first = Container.shared.singletonService()
        Container.shared.manager.reset(scope: .singleton)
        #expect(Container.shared.singletonService() === first)
        Scope.singleton.reset()
        #expect(Container.shared.singletonService() !== first)
    }

    @Test func registrationsInAutoRegisterKeepAnotherContainersSingleton() {
        let first = AutoRegisteringContainer()
        let registered = first.service.register { ReportingService() }
        let singleton = registered()
        // A second instance runs autoRegister(), which registers over the singleton's factory.
        let second = AutoRegisteringContainer()
        #expect(second.service() === singleton)
        #expect(first.service() === singleton)
    }

    @Test func dynamicInjectedProjectsItsFactory() {
        final class Screen {
            @DynamicInjected(\.reporting) var service
        }
        let screen = Screen()
        let factory: Factory<ReportingType> = screen.$service
        #expect(factory.resolve() !== screen.$service.resolve())
    }
}
