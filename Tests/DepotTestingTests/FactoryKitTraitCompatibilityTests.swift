import Depot
import DepotTesting
import Testing

// FactoryTesting's trait, as FactoryKit 3.x users write it: a transform isolated to the main
// actor, and a custom container's trait built with the trait's `callAsFunction(transform:)`.

@MainActor
final class ScreenModel {
    let title: String
    init(title: String = "live") { self.title = title }
}

extension Container {
    @MainActor var screenModel: Factory<ScreenModel> { self { ScreenModel() } }
}

/// A mock the transform makes on the main actor and the test inspects: not Sendable.
final class MockCounter {
    var count = 0
}

extension Container {
    var mockCounter: Factory<MockCounter> { self { MockCounter() }.cached }
}

@Suite struct FactoryKitTraitCompatibilityTests {
    @Test(.container { @MainActor in $0.screenModel.register { ScreenModel(title: "mock") } })
    @MainActor func aMainActorTransformRegistersAMainActorMock() {
        #expect(Container.shared.screenModel().title == "mock")
    }

    @Test(
        .container { container in
            await Task.yield()
            container.mockCounter.register { MockCounter() }
        })
    func anAsyncTransformMayAwait() {
        Container.shared.mockCounter().count += 1
        #expect(Container.shared.mockCounter().count == 1)
    }

    @Test(.app.callAsFunction { $0.widget { Widget("transformed") } })
    func aCustomContainersTraitTakesATransform() {
        #expect(AppContainer.shared.widget().name == "transformed")
    }
}
