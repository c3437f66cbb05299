import Depot
import Foundation
import Testing

protocol Logging: AnyObject, Sendable {
    func log(_ line: String) -> String
}

protocol Flushing: AnyObject, Sendable {
    func flush() -> Int
}

final class FileLogger: Logging, Flushing, @unchecked Sendable {
    let name: String
    init(_ name: String = "file") { self.name = name }
    func log(_ line: String) -> String { "\(name): \(line)" }
    func flush() -> Int { 0 }
}

final class AliasContainer: SharedContainer, ScopingContainer {
    static let shared = AliasContainer()
    let manager = ContainerManager()
    let disposed = Locked([String]())
    init() {}
}

extension AliasContainer {
    var fileLogger: Factory<FileLogger> {
        self { FileLogger() }.cached.onDispose { [disposed] in
            let name = $0.name
            disposed.withLock { $0.append(name) }
        }
    }
    var logging: Factory<any Logging> { alias(\.fileLogger) { $0 } }
    var flushing: Factory<any Flushing> { alias(\.fileLogger) { $0 } }
    var uniqueLogger: Factory<FileLogger> { self { FileLogger("unique") } }
    var uniqueLogging: Factory<any Logging> { alias(\.uniqueLogger) { $0 } }
    var cachedLogging: Factory<any Logging> { alias(\.fileLogger) { $0 }.cached }
    var asyncLogger: AsyncFactory<FileLogger> { self { FileLogger("async") }.cached }
    var asyncLogging: AsyncFactory<any Logging> { alias(\.asyncLogger) { $0 } }
    var asyncLoggingAlias: AsyncFactory<any Logging> { alias(\.asyncLogging) { $0 } }
    var loggerName: Factory<String> { alias(\.fileLogger) { $0.name } }
    var watchedLogging: Factory<any Logging> {
        alias(\.fileLogger) { $0 }.decorator { [disposed] in
            let line = $0.log("seen")
            disposed.withLock { $0.append(line) }
        }
    }
    var asyncWatchedLogging: AsyncFactory<any Logging> {
        alias(\.asyncLogger) { $0 }.decorator { [disposed] in
            let line = $0.log("seen")
            disposed.withLock { $0.append(line) }
        }
    }
}

@Suite struct AliasTests {
    @Test func anAliasResolvesItsSourcesInstanceBehindEachType() {
        let container = AliasContainer()
        let source = container.fileLogger()
        #expect(container.logging() === source)
        #expect(container.flushing() === source)
        #expect(container.loggerName() == "file")
        // A unique source gives the alias a new instance each time, as it gives itself.
        #expect(container.uniqueLogging() !== container.uniqueLogging())
    }

    /// FactoryKit's `decorator { }` on an alias sees each value the alias resolves, though the
    /// alias takes no step of its own otherwise.
    @Test func anAliasRunsItsOwnFactoryKitDecorator() async throws {
        let container = AliasContainer()
        #expect(container.watchedLogging() === container.watchedLogging())
        _ = try await container.asyncWatchedLogging()
        #expect(container.disposed.withLock { $0 } == ["file: seen", "file: seen", "async: seen"])
    }

    @Test func aMockOfTheSourceIsSeenThroughEveryAliasAndOneOfTheAliasReplacesItAlone() {
        let container = AliasContainer()
        container.fileLogger.register { FileLogger("mock") }
        #expect(container.logging().log("x") == "mock: x")
        #expect(container.flushing() === container.fileLogger())
        container.logging.register { FileLogger("alias mock") }
        #expect(container.logging().log("x") == "alias mock: x")
        #expect(container.flushing() === container.fileLogger())
        #expect(container.fileLogger().name == "mock")
        container.logging.reset()
        #expect(container.logging() === container.fileLogger())
    }

    @Test func aContextOfTheSourceIsSeenThroughTheAlias() {
        let container = AliasContainer()
        container.fileLogger.onArg("alias-context") { FileLogger("test context") }
        FactoryContext.setArg("alias-context", forKey: "alias-context")
        defer { FactoryContext.removeArg(forKey: "alias-context") }
        #expect(container.logging().log("x") == "test context: x")
    }

    @Test func theInstanceIsDisposedOnceBySourcesScope() async {
        let container = AliasContainer()
        _ = container.logging()
        _ = container.flushing()
        _ = container.fileLogger()
        let errors = await container.shutdown()
        #expect(errors.isEmpty)
        #expect(container.disposed.withLock { $0 } == ["file"])
    }

    @Test func anAliasOfAnAsyncFactoryResolvesItsInstance() async throws {
        let container = AliasContainer()
        let source = try await container.asyncLogger()
        #expect(try await container.asyncLogging() === source)
    }

    /// An async alias whose source is kept returns the source's hit without an `await` of its
    /// own: what changes the source, or the alias, after that hit is still seen.
    @Test func anAsyncAliasAfterAHitSeesWhatChangesItsSourceOrItself() async throws {
        let container = AliasContainer()
        let source = try await container.asyncLogger()
        #expect(try await container.asyncLogging() === source)
        #expect(try await container.asyncLoggingAlias() === source)
        container.asyncLogger.register { FileLogger("mock") }
        #expect(try await container.asyncLogging().log("x") == "mock: x")
        #expect(try await container.asyncLoggingAlias().log("x") == "mock: x")
        container.asyncLogging.register { FileLogger("alias mock") }
        #expect(try await container.asyncLogging().log("x") == "alias mock: x")
        #expect(try await container.asyncLogger().name == "mock")
        container.asyncLogging.reset()
        container.asyncLogger.reset()
        container.decorate(\.asyncLogging) { FileLogger($0.log("wrapped")) }
        #expect(try await container.asyncLogging().log("x") == "async: wrapped: x")
        #expect(try await container.asyncLogger().log("x") == "async: x")
    }

    @Test func anAliasWithItsOwnScopeIsLoggedOnceAndKeepsASecondInstance() {
        let container = AliasContainer()
        let logged = Locked([String]())
        container.manager.logger = { line in logged.withLock { $0.append(line) } }
        let first = container.cachedLogging()
        container.fileLogger.reset(.scope)
        #expect(container.cachedLogging() === first)
        #expect(container.fileLogger() !== first)
        container.reset(options: .scope)
        _ = container.cachedLogging()
        let lines = logged.withLock { $0 }.filter { $0.contains("is an alias with") }
        #if DEBUG
            #expect(
                lines == [
                    "Depot: AliasContainer.cachedLogging<any Logging> is an alias with the cached "
                        + "scope of its own: it keeps its source's instance for a lifetime of its "
                        + "own, past the source's resets. Remove the scope: the source's keeps the "
                        + "one instance."
                ])
        #else
            // A release build logs nothing; `validate` reports it.
            #expect(lines.isEmpty)
        #endif
    }

    @Test func eightThreadsResolvingAnAliasAndItsSourceMakeOneInstanceDisposedOnce() async {
        for _ in 0..<20 {
            let container = AliasContainer()
            let made = runOnThreads(8) { index in
                index.isMultiple(of: 2)
                    ? ObjectIdentifier(container.logging())
                    : ObjectIdentifier(container.fileLogger())
            }
            #expect(Set(made).count == 1)
            #expect(container.flushing() === container.fileLogger())
            _ = await container.shutdown()
            #expect(container.disposed.withLock { $0 } == ["file"])
        }
    }

    @Test func aHundredTasksResolvingAnAliasAndItsSourceMakeOneInstanceDisposedOnce() async {
        for _ in 0..<10 {
            let container = AliasContainer()
            let made = await withTaskGroup(of: ObjectIdentifier.self) { group in
                for index in 0..<100 {
                    group.addTask {
                        index.isMultiple(of: 2)
                            ? ObjectIdentifier(container.logging())
                            : ObjectIdentifier(container.fileLogger())
                    }
                }
                return await group.reduce(into: Set()) { $0.insert($1) }
            }
            #expect(made.count == 1)
            _ = await container.shutdown()
            #expect(container.disposed.withLock { $0 } == ["file"])
        }
    }

    @Test func aHundredTasksResolvingAnAsyncAliasAndItsSourceMakeOneInstance() async throws {
        for _ in 0..<10 {
            let container = AliasContainer()
            let made = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
                for index in 0..<100 {
                    group.addTask {
                        index.isMultiple(of: 2)
                            ? ObjectIdentifier(try await container.asyncLogging())
                            : ObjectIdentifier(try await container.asyncLogger())
                    }
                }
                return try await group.reduce(into: Set()) { $0.insert($1) }
            }
            #expect(made.count == 1)
        }
    }

    /// The source's first resolve takes `prepare` (`.cached`) or is planned without it
    /// (`.unique`): the alias, which takes no step of its own, is named either way, for a
    /// thread and for a task, and so are both aliases of a cycle through an alias of an alias.
    @Test(arguments: [
        ("alias-cycle", ["nodeAlias", "aliasedNode"]),
        ("unique-alias-cycle", ["uniqueNodeAlias", "uniqueAliasedNode"]),
        ("async-alias-cycle", ["asyncNodeAlias", "asyncAliasedNode"]),
        ("unique-async-alias-cycle", ["uniqueAsyncNodeAlias", "uniqueAsyncAliasedNode"]),
        ("alias-of-alias-cycle", ["outerAlias", "innerAlias", "outerNode"]),
        ("async-alias-of-alias-cycle", ["asyncOuterAlias", "asyncInnerAlias", "asyncOuterNode"]),
    ])
    func aCycleThroughAnAliasNamesTheAlias(scenario: String, steps: [String]) throws {
        let run = try runCrashHelper(scenario)
        let path = (steps + [steps[0]]).map { "Container.\($0)<Node>" }
        #expect(run.status != 0)
        #expect(
            run.errors.contains("Depot: circular dependency: " + path.joined(separator: " -> ")),
            "\(run.errors)")
    }
}
