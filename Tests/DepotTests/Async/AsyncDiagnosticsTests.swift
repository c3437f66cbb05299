import Depot
import Testing

extension AsyncContainer {
    var plainThing: Factory<Connection> { self { Connection("plain") } }
    /// Async, cached, resolving a unique async factory (captive) and a synchronous one.
    var report: AsyncFactory<ConnectionPair> {
        self { ConnectionPair(try await self.connection(), self.plainThing()) }.cached
    }
}

/// Trace lines, the dependency graph, the cache inventory and captive warnings for async
/// factories.
@Suite struct AsyncDiagnosticsTests {
    private func logs(of container: AsyncContainer) -> Journal {
        let journal = Journal()
        container.manager.logger = { journal.append($0) }
        return journal
    }

    @Test func traceShowsAsyncFactoriesAtTheirDepth() async throws {
        let container = AsyncContainer()
        let lines = logs(of: container)
        container.manager.trace = true
        _ = try await container.report()
        _ = try await container.report()
        let traced = lines.entries.filter { !$0.contains("captive") }
        #expect(
            traced == [
                "1:     AsyncContainer.connection<Connection> = F [unique]",
                "1:     AsyncContainer.plainThing<Connection> = F [unique]",
                "0: AsyncContainer.report<ConnectionPair> = F [cached]",
                "0: AsyncContainer.report<ConnectionPair> = C [cached]",
            ])
    }

    @Test func theDependencyGraphRecordsAsyncEdges() async throws {
        let container = AsyncContainer()
        container.manager.isRecordingDependencies = true
        _ = try await container.report()
        #expect(
            container.manager.dependencyGraph().edges.map { "\($0.from) -> \($0.to)" } == [
                "AsyncContainer.report<ConnectionPair> -> AsyncContainer.connection<Connection>",
                "AsyncContainer.report<ConnectionPair> -> AsyncContainer.plainThing<Connection>",
            ])
    }

    @Test func theCacheInventoryListsAsyncInstances() async throws {
        let container = AsyncContainer()
        _ = try await container.report()
        #expect(container.manager.cachedInstances() == ["cached": ["report<ConnectionPair>"]])
    }

    @Test func aCachedAsyncFactoryHoldingAUniqueOneIsCaptiveWhenAsked() async throws {
        let container = AsyncContainer()
        let lines = logs(of: container)
        container.manager.reportsShortLivedCaptives = true
        _ = try await container.report()
        let captive = lines.entries.filter { $0.contains("captive dependency") }
        guard FactoryContext.current.isDebug else {
            #expect(captive.isEmpty)
            return
        }
        #expect(captive.count == 2)
        #expect(
            captive.contains {
                $0.hasPrefix(
                    "Depot: captive dependency: AsyncContainer.report<ConnectionPair> [cached] "
                        + "resolves AsyncContainer.connection<Connection> [unique]")
            })
        #expect(
            captive.contains {
                $0.hasPrefix(
                    "Depot: captive dependency: AsyncContainer.report<ConnectionPair> [cached] "
                        + "resolves AsyncContainer.plainThing<Connection> [unique]")
            })
    }
}
