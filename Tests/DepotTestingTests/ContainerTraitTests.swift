import Depot
import DepotTesting
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
