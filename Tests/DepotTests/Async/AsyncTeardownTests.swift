import Depot
import Testing

extension AsyncContainer {
    var database: AsyncFactory<Connection> {
        self {
            _ = try await self.settings()
            return Connection("database")
        }.cached.onDispose { _ in self.journal.append("database") }
    }
    var settings: AsyncFactory<Connection> {
        self { Connection("settings") }.cached.onDispose { _ in self.journal.append("settings") }
    }
    var cache: Factory<Connection> {
        self { Connection("cache") }.cached.onDispose { _ in self.journal.append("cache") }
    }
    var broken: Factory<Connection> {
        self { Connection("broken") }.cached.onDispose { _ in
            self.journal.append("broken")
            throw Failure(message: "cannot close")
        }
    }
    var appWide: AsyncFactory<Connection> {
        self { Connection("app") }.singleton.onDispose { _ in self.journal.append("app") }
    }
}

/// `onDispose`, `shutdown()` and the disposal of what resets drop.
@Suite(.timeLimit(.minutes(2))) struct AsyncTeardownTests {
    @Test func shutdownDisposesInReverseCreationOrderExactlyOnce() async throws {
        let container = AsyncContainer()
        let journal = container.journal
        _ = container.cache()
        _ = try await container.database()  // creates settings first
        let errors = await container.shutdown()
        #expect(errors.isEmpty)
        #expect(journal.entries == ["database", "settings", "cache"])
        await container.shutdown()
        #expect(journal.entries == ["database", "settings", "cache"])
    }

    @Test func shutdownRunsEveryDisposerWhenOneThrowsAndReportsTheErrors() async throws {
        let container = AsyncContainer()
        let logged = Journal()
        container.manager.logger = { logged.append($0) }
        let journal = container.journal
        _ = container.cache()
        _ = container.broken()
        _ = try await container.settings()
        let errors = await container.shutdown()
        #expect(journal.entries == ["settings", "broken", "cache"])
        #expect(errors.count == 1)
        #expect(errors.first?.factory == "AsyncContainer.broken<Connection>")
        #expect(errors.first?.description.contains("cannot close") == true)
        #expect(logged.entries.contains { $0.contains("onDispose of AsyncContainer.broken") })
    }

    @Test func shutdownLeavesTheContainerEmptyAndUsable() async throws {
        let container = AsyncContainer()
        let before = try await container.database()
        await container.shutdown()
        #expect(container.manager.cachedInstances().isEmpty)
        let after = try await container.database()
        #expect(after !== before)
    }

    @Test func resetsAndRegistrationsDisposeWhatTheyDrop() async throws {
        let container = AsyncContainer()
        let journal = container.journal
        _ = container.cache()
        container.cache.reset()
        try await journal.wait(for: 1)
        #expect(journal.entries == ["cache"])
        _ = try await container.settings()
        container.settings.register { Connection("mock") }
        try await journal.wait(for: 2)
        #expect(journal.entries == ["cache", "settings"])
        _ = try await container.settings()
        container.manager.reset(scope: .cached)
        try await journal.wait(for: 3)
        #expect(journal.entries == ["cache", "settings", "settings"])
        await container.shutdown()
        #expect(journal.entries.count == 3)
    }

    @Test func singletonScopeShutdownDisposesSingletons() async throws {
        try await Scope.withIsolatedSingletons {
            let container = AsyncContainer()
            let journal = container.journal
            let first = try await container.appWide()
            await Scope.singleton.shutdown()
            #expect(journal.entries == ["app"])
            #expect(try await container.appWide() !== first)
        }
    }
}
