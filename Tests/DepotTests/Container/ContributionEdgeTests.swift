import Depot
import Foundation
import Testing

extension Container {
    // An element that contributes another while the kept collection is being made.
    var contributingPlugin: Factory<any Plugin> {
        self {
            self.contribute(\.metricsPlugin, to: \.cachedPlugins)
            return NamedPlugin("contributing")
        }
    }
}

@Suite struct ContributionEdgeTests {
    @Test func aChildsRemovalHidesItsParentsContributionInTheChild() {
        let parent = Container()
        parent.contribute(\.authPlugin, to: \.plugins)
        parent.contribute(\.metricsPlugin, to: \.plugins)
        let child = parent.makeChild()
        child.removeContribution(\.authPlugin, from: \.plugins)
        #expect(child.plugins().map(\.name) == ["metrics"])
        #expect(parent.plugins().map(\.name) == ["auth", "metrics"])
        // Contributed again, it is back in the child.
        child.contribute(\.authPlugin, to: \.plugins)
        #expect(child.plugins().map(\.name) == ["auth", "metrics"])
    }

    @Test func aKeptCollectionIsMadeAgainWhenAnElementContributesWhileItIsMade() {
        let container = Container()
        container.contribute(\.contributingPlugin, to: \.cachedPlugins)
        let first = container.cachedPlugins()
        // What the first resolve made may miss the contribution added meanwhile, but it is not
        // kept: the next resolve has it.
        #expect(first.map(\.name).contains("contributing"))
        #expect(container.cachedPlugins().map(\.name) == ["contributing", "metrics"])
    }

    @Test func aKeptCollectionMadeInsideAutoRegisterIsMadeAgainWhenAContributionIsAdded() {
        // autoRegister() warms the collection up, and its element contributes meanwhile.
        let container = WarmingContainer()
        #expect(container.warmPlugins().map(\.name) == ["metrics", "warming"])
    }
}

final class WarmingContainer: SharedContainer, AutoRegistering {
    static let shared = WarmingContainer()
    let manager = ContainerManager()

    func autoRegister() {
        contribute(\.warmingPlugin, to: \.warmPlugins)
        _ = warmPlugins()
    }
}

extension WarmingContainer {
    var warmPlugins: Factory<[any Plugin]> { contributions().cached }
    var metrics: Factory<any Plugin> { self { NamedPlugin("metrics") } }
    var warmingPlugin: Factory<any Plugin> {
        self {
            self.contribute(\.metrics, to: \.warmPlugins)
            return NamedPlugin("warming")
        }
    }
}

extension Container {
    // Two modules' declarations of one name and type, as each module's `#fileID` names them.
    var moduleAInterceptor: Factory<any Plugin> {
        Factory(self, key: "featureInterceptor", { NamedPlugin("A") }, file: "ModuleA/A.swift")
    }
    var moduleBInterceptor: Factory<any Plugin> {
        Factory(self, key: "featureInterceptor", { NamedPlugin("B") }, file: "ModuleB/B.swift")
    }
}

extension ContributionEdgeTests {
    @Test func twoModulesDeclaringOneNameAndTypeAreTwoFactoriesThatValidationReports() {
        let container = Container()
        container.contribute(\.moduleAInterceptor, to: \.plugins)
        container.contribute(\.moduleBInterceptor, to: \.plugins)
        #expect(Set(container.plugins().map(\.name)) == ["A", "B"])
        container.moduleAInterceptor.register { NamedPlugin("mock A") }
        #expect(Set(container.plugins().map(\.name)) == ["mock A", "B"])
        let report = container.validate(\.plugins)
        #expect(report.isValid, "\(report)")
        #expect(report.warnings.map(\.kind) == [.duplicateContribution])
        #expect(
            report.warnings.first?.message
                == "Depot: 2 contributions to plugins<Array<Plugin>> look alike: each is a "
                + "factory featureInterceptor<any Plugin> declared in another module, and the "
                + "collection has each.",
            "\(report)")
    }
}
