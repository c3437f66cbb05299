import Depot
import Testing

/// A session and what the app builds from it: what a logout resets.
final class SessionContainer: SharedContainer, ScopingContainer {
    @TaskLocal static var shared = SessionContainer()
    let manager = ContainerManager()
    let journal = Journal()
    private let sessions = Locked(0)

    func nextSession() -> Int {
        sessions.withLock {
            $0 += 1; return $0
        }
    }

    var session: Factory<Connection> {
        self { Connection("session \(self.nextSession())") }.cached
    }
    var apiClient: Factory<ConnectionPair> {
        self { ConnectionPair(self.session(), self.settings()) }.cached
            .onDispose { _ in self.journal.append("apiClient") }
    }
    /// Built from `session` through `apiClient`, which it does not keep itself.
    var feed: Factory<Connection> {
        self { Connection("feed of \(self.apiClient().first.name)") }.cached
    }
    var appWide: Factory<Connection> {
        self { Connection("app-wide on \(self.session().name)") }.singleton
    }
    var settings: Factory<Connection> { self { Connection("settings") }.cached }
    var asyncClient: AsyncFactory<Connection> {
        self { Connection("async on \(self.session().name)") }.cached
    }
}

@Suite struct ResetsDependentsTests {
    @Test func aLogoutResetsTheSessionAndGetsAnAPIClientBuiltFromTheNewOne() async throws {
        let container = SessionContainer()
        container.manager.resetsDependents = true
        let before = container.apiClient()
        #expect(before.first.name == "session 1")
        container.session.reset()
        let after = container.apiClient()
        #expect(after !== before)
        #expect(after.first.name == "session 2")
        #expect(container.apiClient() === after)
        try await container.journal.wait(for: 1)
        #expect(container.journal.entries == ["apiClient"])
        // What the session did not build stays.
        #expect(after.second === before.second)
        await container.shutdown()
        #expect(container.journal.entries == ["apiClient", "apiClient"])
    }

    @Test func anAsyncFactoryBuiltFromTheFactoryIsRebuilt() async throws {
        let container = SessionContainer()
        container.manager.resetsDependents = true
        let before = try await container.asyncClient()
        container.session.register { Connection("mock") }
        let after = try await container.asyncClient()
        #expect(before.name == "async on session 1")
        #expect(after.name == "async on mock")
    }

    @Test func theDropReachesWhatWasBuiltFromADependentTransitively() {
        let container = SessionContainer()
        container.manager.resetsDependents = true
        let feed = container.feed()
        container.session.register { Connection("mock session") }
        #expect(container.feed() !== feed)
        #expect(container.feed().name == "feed of mock session")
    }

    @Test func registeringPushingPoppingAndResettingRegistrationsFollowTheOverride() {
        let container = SessionContainer()
        container.manager.resetsDependents = true
        let original = container.apiClient()
        container.manager.push()
        container.session.register { Connection("mock") }
        let mocked = container.apiClient()
        #expect(mocked.first.name == "mock")
        // `pop()` puts the first session back; the client built from the mock goes.
        container.manager.pop()
        let restored = container.apiClient()
        #expect(restored !== mocked)
        #expect(restored.first === original.first)
        container.session.register { Connection("registered") }
        let registered = container.apiClient()
        #expect(registered.first.name == "registered")
        container.manager.reset(options: .registration)
        #expect(container.apiClient() !== registered)
    }

    @Test func singletonsBuiltFromTheFactoryGoToo() {
        Scope.withIsolatedSingletons {
            let container = SessionContainer()
            container.manager.resetsDependents = true
            #expect(container.appWide().name == "app-wide on session 1")
            container.session.reset()
            #expect(container.appWide().name == "app-wide on session 2")
        }
    }

    @Test func lifetimeScopesAndChildrenTakeTheSetting() {
        let container = SessionContainer()
        container.manager.resetsDependents = true
        let (scope, child) = (container.newLifetimeScope(), container.makeChild())
        #expect(scope.manager.resetsDependents && child.manager.resetsDependents)
        let before = scope.apiClient()
        scope.session.reset()
        #expect(scope.apiClient() !== before)
    }

    @Test func eightThreadsResolvingWhileTwoResetKeepNothingBuiltFromAnOldSession() async {
        let container = SessionContainer()
        container.manager.resetsDependents = true
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<500 { _ = container.feed() }
                }
            }
            for _ in 0..<2 {
                group.addTask {
                    for _ in 0..<100 { container.session.reset() }
                }
            }
        }
        // Whatever interleaving happened, what is kept now was built from the session kept now.
        let client = container.apiClient()
        #expect(client.first === container.session())
        #expect(container.feed().name == "feed of \(container.session().name)")
    }

    @Test func nothingIsRebuiltWhenTheSettingIsOff() async throws {
        let container = SessionContainer()
        #expect(!container.manager.resetsDependents)
        let (client, feed) = (container.apiClient(), container.feed())
        container.session.reset()
        container.session.register { Connection("mock") }
        #expect(container.apiClient() === client)
        #expect(container.feed() === feed)
        #expect(container.journal.entries.isEmpty)
    }

    @Test func dependentsRecordedBeforeTheSettingWasTurnedOffAreLeftAlone() {
        let container = SessionContainer()
        container.manager.resetsDependents = true
        _ = container.apiClient()
        container.manager.resetsDependents = false
        let client = container.apiClient()
        container.session.reset()
        #expect(container.apiClient() === client)
    }
}
