import Depot
import Foundation
import Testing

/// A container whose factories make the lifetime mistakes `validate` reports beyond captives.
final class LifetimeContainer: SharedContainer, ScopingContainer {
    static let shared = LifetimeContainer()
    let manager = ContainerManager()
    init() {}
}

extension LifetimeContainer {
    var fileLogger: Factory<FileLogger> { self { FileLogger() }.cached }
    var logging: Factory<any Logging> { alias(\.fileLogger) { $0 } }
    var cachedLogging: Factory<any Logging> { alias(\.fileLogger) { $0 }.cached }
    var asyncFileLogger: AsyncFactory<FileLogger> { self { FileLogger() }.cached }
    var asyncLogging: AsyncFactory<any Logging> { alias(\.asyncFileLogger) { $0 } }
    var asyncCachedLogging: AsyncFactory<any Logging> { alias(\.asyncFileLogger) { $0 }.cached }
    // A forward written by hand, with a scope of its own: the same mistake.
    var forwardedLogging: Factory<any Logging> { self { self.fileLogger() }.cached }

    // One class behind two types, each kept by a factory of its own.
    var tornLogging: Factory<any Logging> { self { FileLogger() }.cached }
    var tornFlushing: Factory<any Flushing> { self { FileLogger() }.singleton }
    var singleLogging: Factory<any Logging> { self { FileLogger() }.singleton }
    var usesBoth: Factory<String> {
        self { "\(self.tornLogging().log("a"))\(self.tornFlushing().flush())" }
    }
    var usesSingletons: Factory<String> {
        self { "\(self.singleLogging().log("a"))\(self.tornFlushing().flush())" }
    }
    // Two factories of one declared type keep two instances by design.
    var primaryLogger: Factory<FileLogger> { self { FileLogger("primary") }.cached }
    var secondaryLogger: Factory<FileLogger> { self { FileLogger("secondary") }.cached }
    var usesTwoNamed: Factory<String> {
        self { self.primaryLogger().name + self.secondaryLogger().name }
    }

    // A teardown that never runs.
    var uniqueWithTeardown: Factory<FileLogger> { self { FileLogger() }.onDispose { _ in } }
    var graphWithTeardown: Factory<FileLogger> { self { FileLogger() }.graph.onDispose { _ in } }
    var cachedWithTeardown: Factory<FileLogger> { self { FileLogger() }.cached.onDispose { _ in } }

    // Collections.
    var emptyPlugins: Factory<[any Plugin]> { contributions() }
    var optionalPlugins: Factory<[any Plugin]> { contributions(mayBeEmpty: true) }
    var asyncEmptyPlugins: AsyncFactory<[any Plugin]> { asyncContributions() }
    var onePlugin: Factory<any Plugin> { self { NamedPlugin("one") } }
}

@Suite struct LifetimeValidationTests {
    @Test func anAliasWithAScopeOfItsOwnIsAWarningWithItsFix() {
        let report = LifetimeContainer().validate(\.cachedLogging, \.logging)
        let found = report.problems.filter { $0.kind == .aliasWithOwnScope }
        #expect(found.count == 1, "\(report)")
        #expect(found.first?.severity == .warning)
        #expect(found.first?.path == ["LifetimeContainer.cachedLogging<any Logging>"])
        #expect(
            found.first?.message
                == "Depot: LifetimeContainer.cachedLogging<any Logging> (cached) keeps the "
                + "instance LifetimeContainer.fileLogger<FileLogger> (cached) keeps: an alias, or "
                + "a forward, with a scope of its own keeps it past the other's resets.")
        #expect(found.first?.fix.contains("Remove the scope") == true)
        // It keeps its source's instance: not a second instance of the class.
        #expect(!report.problems.contains { $0.kind == .tornLifestyle }, "\(report)")
        #expect(report.isValid)
    }

    @Test func aForwardWrittenByHandWithAScopeOfItsOwnIsReportedAsAnAliasIs() {
        let report = LifetimeContainer().validate(\.forwardedLogging)
        #expect(report.problems.map(\.kind) == [.aliasWithOwnScope], "\(report)")
        #expect(report.problems.first?.path == ["LifetimeContainer.forwardedLogging<any Logging>"])
    }

    @Test func oneClassKeptByTwoCachingFactoriesIsATornLifestyle() {
        let report = LifetimeContainer().validate(\.usesBoth)
        let found = report.problems.filter { $0.kind == .tornLifestyle }
        #expect(found.count == 1, "\(report)")
        #expect(found.first?.severity == .warning)
        #expect(found.first?.message.contains("LifetimeContainer.tornLogging<any Logging>") == true)
        #expect(
            found.first?.message.contains("LifetimeContainer.tornFlushing<any Flushing>") == true)
        #expect(found.first?.message.contains("FileLogger") == true)
        #expect(found.first?.fix.contains("alias(\\.tornLogging) { $0 }") == true)
        #expect(report.isValid)
    }

    @Test func oneClassKeptByTwoSingletonsIsAnError() {
        let report = LifetimeContainer().validate(\.usesSingletons)
        let found = report.problems.filter { $0.kind == .tornSingleton }
        #expect(found.count == 1, "\(report)")
        #expect(found.first?.severity == .error)
        #expect(!report.isValid)
    }

    /// An async alias is validated in the validation's copy, though its source keeps a live
    /// instance that the alias's resolve outside a validation takes without an `await`.
    @Test func anAsyncAliasIsValidatedPastItsSourcesLiveInstance() async throws {
        let container = LifetimeContainer()
        let live = try await container.asyncFileLogger()
        #expect(try await container.asyncLogging() === live)
        let report = await container.validate(roots: [
            .async(\.asyncCachedLogging), .async(\.asyncLogging),
        ])
        #expect(
            report.problems.map(\.path) == [["LifetimeContainer.asyncCachedLogging<any Logging>"]],
            "\(report)")
        #expect(report.problems.first?.kind == .aliasWithOwnScope)
        let edges = report.graph.edges.map { "\($0.from) -> \($0.to)" }
        #expect(
            edges.contains(
                "LifetimeContainer.asyncLogging<any Logging> -> "
                    + "LifetimeContainer.asyncFileLogger<FileLogger>"), "\(edges)")
    }

    @Test func twoFactoriesOfOneDeclaredTypeAndAnAliasWithoutScopeAreNotReported() {
        let report = LifetimeContainer().validate(\.usesTwoNamed, \.logging, \.fileLogger)
        #expect(report.problems.isEmpty, "\(report)")
    }

    @Test func aTeardownThatNeverRunsIsAWarning() {
        let report = LifetimeContainer().validate(
            \.uniqueWithTeardown, \.graphWithTeardown, \.cachedWithTeardown)
        let found = report.problems.filter { $0.kind == .disposableTransient }
        #expect(
            found.map(\.path) == [
                ["LifetimeContainer.uniqueWithTeardown<FileLogger>"],
                ["LifetimeContainer.graphWithTeardown<FileLogger>"],
            ], "\(report)")
        #expect(found.allSatisfy { $0.severity == .warning })
        #expect(found.first?.message.contains("its teardown never runs") == true)
    }

    @Test func anEmptyCollectionIsAWarningUnlessItMayBeEmpty() async {
        let container = LifetimeContainer()
        let report = await container.validate(roots: [
            .factory(\.emptyPlugins), .factory(\.optionalPlugins), .async(\.asyncEmptyPlugins),
        ])
        let found = report.problems.filter { $0.kind == .emptyCollection }
        #expect(
            found.map(\.path) == [
                ["LifetimeContainer.emptyPlugins<Array<Plugin>>"],
                ["LifetimeContainer.asyncEmptyPlugins<Array<Plugin>>"],
            ], "\(report)")
        #expect(found.allSatisfy { $0.severity == .warning })
        container.contribute(\.onePlugin, to: \.emptyPlugins)
        let filled = container.validate(\.emptyPlugins)
        #expect(!filled.problems.contains { $0.kind == .emptyCollection }, "\(filled)")
    }
}
