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

extension AsyncContainer {
    /// Resets its container while it creates, so its instance is not kept.
    var resetting: Factory<Connection> {
        self {
            self.manager.reset(options: .scope)
            return Connection("resetting")
        }.cached.onDispose { _ in self.journal.append("resetting") }
    }
    var sharedWithDisposer: Factory<Connection> {
        self { Connection("shared") }.shared.onDispose { _ in self.journal.append("shared") }
    }
}

/// What is disposed without a shutdown, and what is never disposed.
@Suite(.timeLimit(.minutes(2))) struct AsyncDisposalEdgeTests {
    @Test func aContainerReleasedWithoutShutdownStillDisposesItsInstances() async throws {
        let journal = Journal()
        weak var released: ContainerManager?
        do {
            let container = AsyncContainer()
            released = container.manager
            let factory = AsyncFactory(container) { Connection("kept") }
                .cached.onDispose { journal.append("disposed \($0.name)") }
            _ = try await factory()
        }
        #expect(released == nil)
        try await journal.wait(for: 1)
        #expect(journal.entries == ["disposed kept"])
    }

    /// An `onDispose` that captures its container (`self` in the declaration) is kept with the
    /// instance in that container, so the container holds itself: released by its owner, it
    /// stays, until `shutdown()` lets the disposal go (the Teardown article says so).
    @Test func aDisposerThatCapturesItsContainerKeepsItUntilShutdown() async throws {
        weak var released: AsyncContainer?
        var container: AsyncContainer? = AsyncContainer()
        let journal = container!.journal
        released = container
        _ = container!.cache()
        container = nil
        #expect(released != nil)
        await released?.shutdown()
        #expect(journal.entries == ["cache"])
        #expect(released == nil)
    }

    @Test func popDisposesWhatWasMadeAfterPush() async throws {
        let container = AsyncContainer()
        _ = container.cache()
        container.manager.push()
        _ = try await container.settings()
        container.manager.pop()
        try await container.journal.wait(for: 1)
        #expect(container.journal.entries == ["settings"])
        await container.shutdown()
        #expect(container.journal.entries == ["settings", "cache"])
    }

    @Test func weakScopesNeverDisposeAndSaySoInDebugBuilds() async throws {
        let container = AsyncContainer()
        let logged = Journal()
        container.manager.logger = { logged.append($0) }
        let held = container.sharedWithDisposer()
        await container.shutdown()
        #expect(container.journal.entries.isEmpty)
        #expect(held.name == "shared")
        if FactoryContext.current.isDebug {
            #expect(logged.entries.contains { $0.contains("holds instances weakly") })
        }
    }

    @Test func aResetDuringACreationHandsTheInstanceOutWithoutKeepingIt() async throws {
        let container = AsyncContainer()
        let waiting = Task { try await container.slowConnection() }
        while container.made.value == 0 { await Task.yield() }
        container.manager.reset(options: .scope)
        container.gate.open()
        let handedOut = try await waiting.value
        #expect(handedOut.name == "slow")
        let next = try await container.slowConnection()
        #expect(next !== handedOut)
        #expect(container.made.value == 2)
    }

    @Test func aSyncInstanceNotKeptBecauseOfAResetIsNotDisposed() async throws {
        let container = AsyncContainer()
        #expect(container.resetting().name == "resetting")
        #expect(container.manager.cachedInstances().isEmpty)
        await container.shutdown()
        try await Task.sleep(for: .milliseconds(50))
        #expect(container.journal.entries.isEmpty)
    }

    @Test func asyncFactoriesAreDeclaredWithMakesAndTheInitialiserToo() async throws {
        let container = AsyncContainer()
        let made: AsyncFactory<Connection> = container.makes { Connection("makes") }
        let initialised = AsyncFactory(container) { Connection("init") }.cached
        #expect(try await made().name == "makes")
        let first = try await initialised()
        #expect(try await initialised() === first)
        let parameterised = AsyncParameterFactory<Int, Connection>(container) {
            Connection("\($0)")
        }
        #expect(try await parameterised(7).name == "7")
    }
}
