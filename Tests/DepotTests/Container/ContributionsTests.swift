import Depot
import Foundation
import Testing

protocol Plugin: AnyObject, Sendable {
    var name: String { get }
}

final class NamedPlugin: Plugin {
    let name: String
    init(_ name: String) { self.name = name }
}

extension Container {
    var plugins: Factory<[any Plugin]> { contributions() }
    var cachedPlugins: Factory<[any Plugin]> { contributions().cached }
    var asyncPlugins: AsyncFactory<[any Plugin]> { asyncContributions() }
    // Two modules' contributions.
    var loggingPlugin: Factory<any Plugin> { self { NamedPlugin("logging") }.cached }
    var authPlugin: Factory<any Plugin> { self { NamedPlugin("auth") } }
    var metricsPlugin: Factory<any Plugin> { self { NamedPlugin("metrics") } }
    var missingPlugin: Factory<(any Plugin)?> { promised() }
    var asyncAuthPlugin: AsyncFactory<any Plugin> { self { NamedPlugin("async auth") } }
    var asyncCachePlugin: AsyncFactory<any Plugin> { self { NamedPlugin("async cache") }.cached }
}

/// A module's setup: what it contributes, in an order of its choosing.
private func moduleA(_ container: Container) {
    container.contribute(\.loggingPlugin, to: \.plugins, order: 10)
}

private func moduleB(_ container: Container) {
    container.contribute(\.authPlugin, to: \.plugins)
    container.contribute(\.metricsPlugin, to: \.plugins)
}

@Suite struct ContributionsTests {
    @Test func theOrderIsByOrderThenNameWhateverOrderModulesContributeIn() {
        let first = Container()
        moduleA(first)
        moduleB(first)
        let second = Container()
        moduleB(second)
        moduleA(second)
        #expect(first.plugins().map(\.name) == ["auth", "metrics", "logging"])
        #expect(second.plugins().map(\.name) == ["auth", "metrics", "logging"])
        #expect(Container().plugins().isEmpty)
    }

    @Test func eachContributionKeepsItsOwnScope() {
        let container = Container()
        moduleA(container)
        moduleB(container)
        let (one, two) = (container.plugins(), container.plugins())
        #expect(one[2] === two[2])  // logging is cached
        #expect(one[0] !== two[0])  // auth is unique
    }

    @Test func aContributionIsReplacedByRegisteringItsFactoryRemovedAndReordered() {
        let container = Container()
        moduleA(container)
        moduleB(container)
        container.authPlugin.register { NamedPlugin("mock auth") }
        #expect(container.plugins().map(\.name) == ["mock auth", "metrics", "logging"])
        container.removeContribution(\.metricsPlugin, from: \.plugins)
        #expect(container.plugins().map(\.name) == ["mock auth", "logging"])
        container.contribute(\.metricsPlugin, to: \.plugins, order: -1)
        #expect(container.plugins().map(\.name) == ["metrics", "mock auth", "logging"])
        container.contribute(\.metricsPlugin, to: \.plugins, order: 20)
        #expect(container.plugins().map(\.name) == ["mock auth", "logging", "metrics"])
    }

    @Test func theWholeCollectionIsOverriddenByRegisteringIt() {
        let container = Container()
        moduleA(container)
        container.plugins.register { [NamedPlugin("only")] }
        #expect(container.plugins().map(\.name) == ["only"])
        container.plugins.reset()
        #expect(container.plugins().map(\.name) == ["logging"])
    }

    @Test func aCachedCollectionIsRemadeWhenAContributionIsAddedOrRemoved() {
        let container = Container()
        container.contribute(\.loggingPlugin, to: \.cachedPlugins)
        let first = container.cachedPlugins()
        #expect(container.cachedPlugins().map(\.name) == ["logging"])
        container.contribute(\.authPlugin, to: \.cachedPlugins)
        let second = container.cachedPlugins()
        #expect(second.map(\.name) == ["auth", "logging"])
        #expect(second[1] === first[0])
        container.removeContribution(\.authPlugin, from: \.cachedPlugins)
        #expect(container.cachedPlugins().map(\.name) == ["logging"])
    }

    @Test func aKeptCollectionFollowsARegisteredContributionWithResetsDependents() {
        let container = Container()
        container.contribute(\.authPlugin, to: \.cachedPlugins)
        let before = container.cachedPlugins()
        container.authPlugin.register { NamedPlugin("mock auth") }
        // Off: the kept collection keeps the element it was made with.
        #expect(container.cachedPlugins().map(\.name) == ["auth"])
        container.manager.resetsDependents = true
        container.cachedPlugins.reset()
        #expect(container.cachedPlugins()[0] !== before[0])
        container.authPlugin.register { NamedPlugin("second mock") }
        #expect(container.cachedPlugins().map(\.name) == ["second mock"])
    }

    @Test func aLifetimeScopeAChildAndAPushTakeTheContributions() {
        let container = Container()
        moduleA(container)
        let scope = container.newLifetimeScope()
        moduleB(scope)
        #expect(scope.plugins().map(\.name) == ["auth", "metrics", "logging"])
        #expect(container.plugins().map(\.name) == ["logging"])
        let child = container.makeChild()
        #expect(child.plugins().map(\.name) == ["logging"])
        moduleB(child)
        #expect(child.plugins().map(\.name) == ["auth", "metrics", "logging"])
        #expect(child.plugins()[2] === container.plugins()[0])
        container.manager.push()
        moduleB(container)
        #expect(container.plugins().count == 3)
        container.manager.pop()
        #expect(container.plugins().map(\.name) == ["logging"])
        container.manager.reset()
        #expect(container.plugins().isEmpty)
    }

    @Test func twoModulesContributeWhileEightThreadsResolve() async {
        let container = Container()
        await withTaskGroup(of: Void.self) { group in
            group.addTask { moduleA(container) }
            group.addTask { moduleB(container) }
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<500 {
                        let names = container.plugins().map(\.name)
                        // Whatever has been contributed so far, in its order.
                        #expect(names == names.sorted { rank($0) < rank($1) })
                    }
                }
            }
        }
        #expect(container.plugins().map(\.name) == ["auth", "metrics", "logging"])
    }

    @Test(
        .container {
            moduleA($0)
            moduleB($0)
            $0.authPlugin.register { NamedPlugin("mock") }
        })
    func aTestReplacesOneContribution() {
        #expect(Container.shared.plugins().map(\.name) == ["mock", "metrics", "logging"])
    }

    @Test(
        .container {
            moduleA($0)
            moduleB($0)
        })
    func aTestInParallelSeesTheLiveOnes() {
        #expect(Container.shared.plugins().map(\.name) == ["auth", "metrics", "logging"])
    }

    @Test func asyncContributionsMakeAnAsyncCollection() async throws {
        let container = Container()
        container.contribute(\.asyncCachePlugin, to: \.asyncPlugins)
        container.contribute(\.asyncAuthPlugin, to: \.asyncPlugins)
        container.contribute(\.metricsPlugin, to: \.asyncPlugins, order: 1)
        let names = try await container.asyncPlugins().map(\.name)
        #expect(names == ["async auth", "async cache", "metrics"])
        let (one, two) = (try await container.asyncPlugins(), try await container.asyncPlugins())
        #expect(one[1] === two[1])
        container.removeContribution(\.asyncCachePlugin, from: \.asyncPlugins)
        #expect(try await container.asyncPlugins().map(\.name) == ["async auth", "metrics"])
    }

    @Test func validateResolvesEveryContribution() {
        let container = Container()
        moduleA(container)
        moduleB(container)
        let report = container.validate(\.plugins)
        #expect(report.isValid)
        let names = report.graph.nodes.map(\.description)
        for contribution in ["loggingPlugin", "authPlugin", "metricsPlugin"] {
            #expect(names.contains { $0.contains(contribution) }, "\(names)")
        }
    }

    @Test func validateReportsAContributionThatCannotResolve() {
        let container = Container()
        container.manager.promiseTriggersError = true
        container.metricsPlugin.register { container.missingPlugin() ?? NamedPlugin("none") }
        moduleB(container)
        let report = container.validate(\.plugins)
        #expect(!report.isValid)
        #expect(report.problems.contains { $0.path.contains { $0.contains("metricsPlugin") } })
    }
}

private func rank(_ name: String) -> Int {
    ["auth": 0, "metrics": 1, "logging": 2][name] ?? 3
}
