import Depot
import DepotTesting
import Foundation
import Testing

final class Widget: @unchecked Sendable {
    let name: String
    init(_ name: String = "live") { self.name = name }
}

extension Container {
    var widget: Factory<Widget> { self { Widget() }.cached }
    var singletonWidget: Factory<Widget> { self { Widget() }.singleton }
}

final class AppContainer: SharedContainer {
    @TaskLocal static var shared = AppContainer()
    let manager = ContainerManager()
}

extension AppContainer {
    var widget: Factory<Widget> { self { Widget("app") }.singleton }
}

extension Trait where Self == ContainerTrait<AppContainer> {
    static var app: Self { ContainerTrait(shared: AppContainer.$shared, container: AppContainer()) }
    static func app(_ transform: @escaping Self.Transform) -> Self {
        ContainerTrait(
            shared: AppContainer.$shared, container: AppContainer(), transform: transform)
    }
}

/// Stops the process if it is released off the main actor, as a main-actor type's deinit may.
final class MainActorBound: @unchecked Sendable {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var released = 0

    static var releasedCount: Int { lock.withLock { released } }

    deinit {
        MainActor.preconditionIsolated("Depot: a test's instance was released off the main actor")
        Self.lock.withLock { Self.released += 1 }
    }
}

extension Container {
    var mainActorBoundSingleton: Factory<MainActorBound> { self { MainActorBound() }.singleton }
    var mainActorBoundCached: Factory<MainActorBound> { self { MainActorBound() }.cached }
}

@Suite(.serialized) struct ContainerTraitReleaseTests {
    @Test func theTraitLetsGoOfATestsContainerAndSingletonsOnTheMainActor() async throws {
        let before = MainActorBound.releasedCount
        try await ContainerTrait<Container>.container.provideScope(
            for: Test.current!, testCase: nil
        ) {
            Container.shared.mainActorBoundSingleton.register { MainActorBound() }
            _ = Container.shared.mainActorBoundSingleton()
            _ = Container.shared.mainActorBoundCached()
            await Task.yield()
        }
        #expect(MainActorBound.releasedCount == before + 2)
    }

    @Test func theyAreLetGoOfWhenTheTestThrowsToo() async throws {
        struct Failed: Error {}
        let before = MainActorBound.releasedCount
        await #expect(throws: Failed.self) {
            try await ContainerTrait<Container>.container.provideScope(
                for: Test.current!, testCase: nil
            ) {
                _ = Container.shared.mainActorBoundSingleton()
                throw Failed()
            }
        }
        #expect(MainActorBound.releasedCount == before + 1)
    }
}

/// Tests that register different mocks on `Container.shared` and run in parallel.
@Suite(.container) struct ContainerTraitTests {
    @Test(.container { $0.widget { Widget("first") } })
    func eachTestSeesItsOwnRegistration() {
        #expect(Container.shared.widget().name == "first")
    }

    @Test(.container { $0.widget { Widget("second") } })
    func anotherTestSeesAnotherRegistration() {
        #expect(Container.shared.widget().name == "second")
    }

    @Test(arguments: 0..<8)
    func parallelTestsEachGetAFreshContainer(index: Int) {
        #expect(Container.shared.widget().name == "live")
        Container.shared.widget.register { Widget("case \(index)") }
        #expect(Container.shared.widget().name == "case \(index)")
    }

    @Test(arguments: 0..<8)
    func singletonsAreIsolatedPerTest(index: Int) async {
        let first = Container.shared.singletonWidget()
        Container.shared.singletonWidget.register { Widget("\(index)") }
        #expect(Container.shared.singletonWidget() !== first)
        #expect(Container.shared.singletonWidget().name == "\(index)")
        await Task.yield()
        #expect(Container.shared.singletonWidget().name == "\(index)")
    }

    @Test func sharedContainerIsNotTheProcessDefault() async {
        let inside = Container.shared
        let outside = await Task.detached { Container.shared }.value
        #expect(inside !== outside)
    }

    @Test(.app { $0.widget { Widget("custom") } })
    func customContainerTraitSwapsItsSharedContainer() {
        #expect(AppContainer.shared.widget().name == "custom")
    }

    @Test(.app) func customContainerTraitIsolatesSingletons() {
        #expect(AppContainer.shared.widget().name == "app")
        AppContainer.shared.widget { Widget("changed") }
        #expect(AppContainer.shared.widget().name == "changed")
    }
}
