import Depot
import DepotTesting
import Testing

// FactoryKit 3.x code, written as its users write it, unchanged but for the import: plain
// closures that capture non-Sendable mocks, factories isolated to the main actor or a global
// actor of the app's own, the async transform, and the actor-taking resolvers.

protocol AnalyticsType: AnyObject {
    func log(_ event: String)
}

final class LiveAnalytics: AnalyticsType {
    func log(_ event: String) {}
}

/// A test's mock: a plain class, not Sendable, inspected after the code under test ran.
final class MockAnalytics: AnalyticsType {
    var events: [String] = []
    func log(_ event: String) { events.append(event) }
}

@MainActor
final class ContentScreenModel {
    var title: String
    init() { title = "content" }
}

@MainActor
final class Coordinator {
    init() {}
}

@globalActor
actor BackgroundActor {
    static let shared = BackgroundActor()
}

@BackgroundActor
final class BackgroundService {
    var jobs = 0
    init() {}
}

final class Greeter: Sendable {
    let name: String
    init(name: String) { self.name = name }
}

extension Container {
    var analytics: Factory<AnalyticsType> { self { LiveAnalytics() } }
    @MainActor var contentViewModel: Factory<ContentScreenModel> { self { ContentScreenModel() } }
    @MainActor var coordinator: Factory<Coordinator> { self { @MainActor in Coordinator() }.cached }
    @BackgroundActor var backgroundService: Factory<BackgroundService> {
        self { BackgroundService() }.cached
    }
    var greeter: Factory<Greeter> { self { Greeter(name: "live") } }
    var namedGreeter: ParameterFactory<String, Greeter> { self { Greeter(name: $0) } }
}

@Suite(.container)
struct FactoryKitCompatibilityTests {
    @Test func registersANonSendableMockTheTestInspects() {
        let mock = MockAnalytics()
        Container.shared.analytics.register { mock }
        Container.shared.analytics().log("opened")
        #expect(mock.events == ["opened"])
    }

    @Test @MainActor func resolvesAMainActorViewModel() {
        let model = Container.shared.contentViewModel()
        #expect(model.title == "content")
        #expect(Container.shared.contentViewModel.resolveOnMainActor() !== model)
    }

    @Test @MainActor func cachesAClosureMarkedMainActor() {
        #expect(Container.shared.coordinator() === Container.shared.coordinator())
    }

    @Test @BackgroundActor func cachesAFactoryOfACustomGlobalActor() {
        let service = Container.shared.backgroundService()
        service.jobs += 1
        #expect(Container.shared.backgroundService().jobs == 1)
    }

    // FactoryKit's own MainActorTest and ParallelIsolatedTests resolve a factory declared on a
    // global actor off that actor, from a test's task: FactoryKit runs it, and so does Depot.
    @Test func resolvesAGlobalActorFactoryOffItsActorAsFactoryKitDoes() async {
        let service = await Container().backgroundService()
        #expect(await service.jobs == 0)
    }

    @Test func resolvesGlobalActorFactoriesOffTheirActorInParallel() async {
        let container = Container()
        let count = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<3 {
                group.addTask { await container.backgroundService().jobs }
            }
            return await group.reduce(0) { $0 + 1 + $1 }
        }
        #expect(count == 3)
    }

    @Test func loggerCollectsIntoALocalVariable() {
        var log: [String] = []
        let container = Container()
        container.manager.trace = true
        container.manager.logger = { log.append($0) }
        _ = container.greeter()
        #expect(log.count == 1)
        #expect(log.first?.contains("greeter") == true)
    }

    @Test func asyncTransformRegistersOnTheSharedContainer() async {
        await Container.shared { container in
            let name = await MainActor.run { "main" }
            container.greeter.register { Greeter(name: name) }
        }
        #expect(Container.shared.greeter().name == "main")
        let container = await Container().with { container in
            await Task.yield()
            container.greeter.register { Greeter(name: "with") }
        }
        #expect(container.greeter().name == "with")
    }

    @Test func resolvesOnAnActorInstance() async {
        let greeter = await Container.shared.greeter.resolveOnGlobalActor(BackgroundActor.shared)
        #expect(greeter.name == "live")
        let named = await Container.shared.namedGreeter.resolveOnGlobalActor(
            BackgroundActor.shared, parameters: "actor")
        #expect(named.name == "actor")
        let onMain = await Container.shared.namedGreeter.resolveOnMainActor("main")
        #expect(onMain.name == "main")
    }

    @Test func graphScopeReportsTheResolutionDepth() {
        let container = Container()
        #expect(Scope.graph.depth == 0)
        let depth = Factory(container, key: "depth") { Scope.graph.depth }
        #expect(depth() == 1)
        let nested = Factory(container, key: "nested") { depth() }
        #expect(nested() == 2)
    }

    @Test func globalResolveAndTheClosureTypeNamesWork() {
        #expect(resolve(\.greeter).name == "live")
        #expect(resolve(\ServiceContainer.thing).id == 0)
        let make: VoidFactoryType<Greeter> = { Greeter(name: "alias") }
        #expect(Factory(Container(), key: "alias", make)().name == "alias")
        let named: ParameterFactoryType<String, Greeter> = { Greeter(name: $0) }
        #expect(ParameterFactory(Container(), key: "named", named)("p").name == "p")
    }

    @Test func injectedContainerAndInjectedTypeTakeFactoryKitsArguments() {
        struct Holder {
            @InjectedContainer(ServiceContainer.self) var services
            @InjectedType(ServiceContainer.shared) var thing: Thing?
            mutating func resetServices() { _services.reset(options: .scope) }
        }
        ServiceContainer.$shared.withValue(ServiceContainer()) {
            var holder = Holder()
            #expect(holder.services === ServiceContainer.shared)
            #expect(holder.thing == nil)
            let cached = holder.services.service()
            holder.resetServices()
            #expect(holder.services.service() !== cached)
        }
    }
}

extension Container {
    /// Resolved only by `FactoryKitXCTestPatternTests`, in the process's singletons.
    var xcTestSingleton: Factory<Thing> { self { Thing() }.singleton }
}

/// FactoryKit's XCTest isolation, `Container.$shared.withValue(Container()) {
/// Scope.$singleton.withValue(Scope.singleton.clone()) { super.invokeTest() } }`, run where an
/// XCTest runs it: outside any isolation (so without the `.container` trait).
@Suite struct FactoryKitXCTestPatternTests {
    @Test func xcTestsIsolationPatternKeepsSingletonsApart() {
        let outside = Container().xcTestSingleton()
        Container.$shared.withValue(Container()) {
            Scope.$singleton.withValue(Scope.singleton.clone()) {
                let inside = Container.shared.xcTestSingleton()
                #expect(inside !== outside)
                #expect(Container.shared.xcTestSingleton() === inside)
                Scope.singleton.reset()
                #expect(Container.shared.xcTestSingleton() !== inside)
            }
        }
        #expect(Container().xcTestSingleton() === outside)
    }
}
