import Depot
import Testing

/// Declaring and resolving async factories: scopes, overrides, parameters, and the way
/// synchronous factories use their instances.
@Suite struct AsyncFactoryTests {
    @Test func uniqueMakesANewInstanceEachTime() async throws {
        let container = AsyncContainer()
        let first = try await container.connection()
        let second = try await container.connection.resolve()
        #expect(first !== second)
        #expect(container.made.value == 2)
    }

    @Test func cachedKeepsOneInstancePerContainer() async throws {
        let container = AsyncContainer()
        let first = try await container.cachedConnection()
        let second = try await container.cachedConnection()
        #expect(first === second)
        #expect(try await AsyncContainer().cachedConnection() !== first)
        container.manager.reset(options: .scope)
        #expect(try await container.cachedConnection() !== first)
    }

    @Test func sharedKeepsAnInstanceWhileSomeoneHoldsIt() async throws {
        let container = AsyncContainer()
        var held: Connection? = try await container.sharedConnection()
        let id = ObjectIdentifier(held!)
        #expect(try await container.sharedConnection() === held)
        weak let weakHeld = held
        held = nil
        #expect(weakHeld == nil)
        _ = id
    }

    /// A value type has no identity to hold weakly: an async factory of one in the weak scope
    /// makes a value each time and warns once, in debug builds, as a synchronous one does.
    @Test func sharedValueTypeBehavesAsUniqueAndWarnsOnce() async throws {
        let container = AsyncContainer()
        let lines = Locked<[String]>([])
        container.manager.logger = { line in lines.withLock { $0.append(line) } }
        let made = container.made
        let factory = AsyncFactory<Int>(container) {
            made.increment()
            return 7
        }.shared
        #expect(try await factory() == 7)
        #expect(try await factory() == 7)
        #expect(made.value == 2)
        if FactoryContext.current.isDebug {
            #expect(lines.current.count == 1)
            #expect(lines.current.first?.contains("value type") == true)
        }
    }

    @Test func singletonIsOnePerProcessAndResetsWithItsScope() async throws {
        try await Scope.withIsolatedSingletons {
            let container = AsyncContainer()
            let first = try await container.singletonConnection()
            #expect(try await AsyncContainer().singletonConnection() === first)
            Scope.singleton.reset()
            #expect(try await container.singletonConnection() !== first)
        }
    }

    @Test func registerReplacesTheClosureAndDropsTheCachedInstance() async throws {
        let container = AsyncContainer()
        let live = try await container.cachedConnection()
        container.cachedConnection.register { Connection("mock") }
        let mock = try await container.cachedConnection()
        #expect(mock.name == "mock")
        #expect(mock !== live)
        #expect(try await container.cachedConnection() === mock)
        container.cachedConnection.reset()
        #expect(try await container.cachedConnection().name == "cached")
    }

    @Test func contextOverridesApplyToAsyncFactories() async throws {
        let container = AsyncContainer()
        container.connection.onTest { Connection("test") }
        #expect(try await container.connection().name == "test")
    }

    @Test func parametersAreCachedPerValueWithScopeOnParameters() async throws {
        let container = AsyncContainer()
        let one = try await container.account(1)
        #expect(one.name == "account 1")
        #expect(try await container.account(1) === one)
        #expect(try await container.account(2) !== one)
        #expect(container.made.value == 2)
    }

    @Test func timeToLiveReplacesAnOldInstance() async throws {
        let container = AsyncContainer()
        // The container's clock, so that a slow machine (or ThreadSanitizer) cannot age it.
        let now = Locked(100.0)
        container.manager.clock = ContainerManager.Clock { now.current }
        let first = try await container.cachedConnection.timeToLive(0.5)()
        now.withLock { $0 = 100.4 }
        #expect(try await container.cachedConnection() === first)
        now.withLock { $0 = 100.6 }
        #expect(try await container.cachedConnection() !== first)
    }

    @Test func decoratorSeesEveryResolvedValue() async throws {
        let container = AsyncContainer()
        let seen = Journal()
        let factory = container.cachedConnection.decorator { seen.append("\($0.name) \($1)") }
        _ = try await factory()
        _ = try await factory()
        #expect(seen.entries == ["cached true", "cached false"])
    }

    @Test func customScopesKeepAsyncInstances() async throws {
        let container = AsyncContainer()
        let scope = Scope.Custom(name: "asyncSession")
        let factory = container.connection.scope(scope)
        let first = try await factory()
        #expect(try await factory() === first)
        scope.reset()
        #expect(try await factory() !== first)
    }

    @Test func anAsyncFactoryResolvesSyncAndAsyncFactories() async throws {
        let container = AsyncContainer()
        container.manager.defaultScope = .unique
        let pair = try await container.graphPair()
        #expect(pair.first.name == "graph")
    }

    @Test func aSyncFactoryUsesAWarmedUpInstance() async throws {
        let container = AsyncContainer()
        #expect(throws: NotWarmedUpError.self) { try container.cachedConnection.warmed() }
        try await container.warmUp(\.cachedConnection, \.sharedConnection)
        let warmed = try container.cachedConnection.warmed()
        #expect(container.repository().first === warmed)
    }

    @Test func warmedNamesTheFactoryAndSaysWhy() async throws {
        let container = AsyncContainer()
        do {
            _ = try container.cachedConnection.warmed()
            Issue.record("no error")
        } catch {
            #expect(error.reason == .notCreated)
            #expect(error.description.contains("AsyncContainer.cachedConnection<Connection>"))
            #expect(error.description.contains("warmUp"))
        }
        #expect(throws: NotWarmedUpError.self) { try container.connection.warmed() }
        let waiting = Task { try await container.slowConnection() }
        while container.made.value == 0 { await Task.yield() }
        do {
            _ = try container.slowConnection.warmed()
            Issue.record("no error")
        } catch {
            #expect(error.reason == .inFlight)
        }
        container.gate.open()
        _ = try await waiting.value
        #expect(try container.slowConnection.warmed().name == "slow")
    }

    /// An async factory's first resolves in a container with an `autoRegister()`: it runs once,
    /// before any of them returns, and every one gets what it registered, made once.
    @Test func theFirstAsyncResolvesWaitForAutoRegisterAndGetWhatItRegistered() async throws {
        let container = AutoAsyncContainer()
        let connections = try await withThrowingTaskGroup(of: Connection.self) { group in
            for _ in 0..<100 { group.addTask { try await container.connection() } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(container.autoRegistrations.value == 1)
        #expect(connections.allSatisfy { $0.name == "auto" && $0 === connections[0] })
        #expect(container.made.value == 1)
    }
}

/// A container whose `autoRegister()` registers an async factory's closure.
final class AutoAsyncContainer: SharedContainer, AutoRegistering {
    static let shared = AutoAsyncContainer()
    let manager = ContainerManager()
    let autoRegistrations = Counter()
    let made = Counter()

    func autoRegister() {
        autoRegistrations.increment()
        let made = made
        connection.register {
            made.increment()
            await Task.yield()
            return Connection("auto")
        }
    }

    var connection: AsyncFactory<Connection> { self { Connection("live") }.cached }
}
