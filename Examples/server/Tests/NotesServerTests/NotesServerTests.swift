import Depot
import DepotTesting
import Foundation
import Hummingbird
import HummingbirdTesting
import NotesRoutes
import NotesServer
import StatsRoutes
import StoreTiming
import Testing

// The modules under test, each adding its routes before a container's first use, as the
// executable composes them.
extension Container: @retroactive AutoRegistering {
    public func autoRegister() {
        registerNotesRoutes()
        registerStatsRoutes()
        registerStoreTiming()
    }
}

/// Starts the service on a free loopback port, with a database file of its own and singletons
/// of its own, runs `body` against it over real HTTP, then stops it gracefully. Returns the
/// server's counters, which outlive its shutdown.
@discardableResult
func withServer(
    setUp: (Container) -> Void = { _ in },
    _ body: @Sendable (any TestClientProtocol, Container) async throws -> Void
) async throws -> ServerStats {
    try await Scope.withIsolatedSingletons {
        let root = Container()
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("notes-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        root.databasePath.register { path }
        setUp(root)
        let stats = root.serverStats()
        let app = try await buildApplication(root: root, port: 0)
        try await app.test(.live) { client in try await body(client, root) }
        return stats
    }
}

func json(_ text: String) -> ByteBuffer { ByteBuffer(string: text) }

func decode<T: Decodable>(_ type: T.Type, _ body: ByteBuffer?) throws -> T {
    try JSONDecoder().decode(T.self, from: Data(buffer: body ?? ByteBuffer()))
}

@Suite(.timeLimit(.minutes(2))) struct NotesServerTests {
    @Test func theDefaultDatabaseIsInTheTemporaryDirectoryNotTheWorkingOne() {
        let path = Container().databasePath()
        #expect(path.hasPrefix(FileManager.default.temporaryDirectory.path), "\(path)")
        #expect(path.hasSuffix("/depot-notes.sqlite"))
        #expect(!path.hasPrefix(FileManager.default.currentDirectoryPath), "\(path)")
    }

    @Test func theServicesGraphIsValid() async {
        await Scope.withIsolatedSingletons {
            let root = Container()
            let path = FileManager.default.temporaryDirectory
                .appendingPathComponent("notes-\(UUID().uuidString).sqlite").path
            defer { try? FileManager.default.removeItem(atPath: path) }
            root.databasePath.register { path }
            // The modules' routes too: validation reaches each contribution, and the store's
            // decorator.
            let app = await root.validate(roots: [
                .async(\.database), .factory(\.serverStats), .factory(\.routeGroups),
                .async(\.notesStore),
            ])
            #expect(app.isValid, "\(app)")
            #expect(app.graph.nodes.contains { $0.key == "statsRoutes" })
            // What each request resolves, in a request's lifetime scope.
            let request = await root.newLifetimeScope().validate(roots: [.factory(\.unitOfWork)])
            #expect(request.isValid, "\(request)")
            #expect(
                request.graph.nodes.map(\.key).sorted() == [
                    "requestInfo", "serverStats", "unitOfWork",
                ])
            // Validation kept nothing: the service opens its database on first use.
            #expect(root.manager.cachedInstances()["singleton"] == nil)
        }
    }

    /// The graph of a request and of the services it reaches, validated in child processes:
    /// a cycle ends its child, not the test run, and the next child goes on from the root
    /// after it; every root's report reaches the test.
    @Test func everyRootOfARequestIsValidInChildProcesses() async throws {
        let report = try await ValidationReport.checkingEveryRoot { start in
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                [start = start as Int] in
                await ValidationReport.reportToParent(startingAt: start) {
                    await Container().newLifetimeScope().validate(roots: [
                        .factory(\.unitOfWork), .factory(\.serverStats), .factory(\.routeGroups),
                    ])
                }
            }
        }
        #expect(report.isValid, "\(report)")
        #expect(report.graph.nodes.map(\.key).contains("unitOfWork"))
        #expect(report.graph.nodes.contains { $0.key == "statsRoutes" })
    }

    @Test func theRoutesAreWhatTheTwoModulesContributedInTheirOrder() async throws {
        let groups = Container().routeGroups()
        #expect(groups.map { "\(type(of: $0))" } == ["NotesRoutes", "StatsRoutes"])
        try await withServer { client, _ in
            let notes = try await client.execute(uri: "/notes", method: .get)
            #expect(notes.status == .ok)
            let stats = try await client.execute(uri: "/stats", method: .get)
            #expect(stats.status == .ok)
        }
    }

    @Test func aTestCanLeaveAModuleOut() async throws {
        try await withServer(setUp: { $0.removeContribution(\.statsRoutes, from: \.routeGroups) }) {
            client, _ in
            let notes = try await client.execute(uri: "/notes", method: .get)
            #expect(notes.status == .ok)
            let stats = try await client.execute(uri: "/stats", method: .get)
            #expect(stats.status == .notFound)
        }
    }

    @Test func aModulesDecoratorTimesEveryCallToTheOneDatabase() async throws {
        try await withServer { client, root in
            _ = try await client.execute(
                uri: "/notes", method: .post, body: json(#"{"text": "buy milk"}"#))
            _ = try await client.execute(uri: "/notes", method: .get)
            _ = try await client.execute(uri: "/notes/1", method: .get)
            let timings = root.storeTimings().current
            #expect(timings.mapValues(\.calls) == ["insert": 1, "all": 1, "note": 1])
            // The store the routes use is the one database, wrapped: the alias resolves it.
            let store = try await root.notesStore()
            #expect(!(store is NotesDatabase))
            #expect(root.serverStats().current.databaseOpens == 1)
        }
    }

    @Test func aTestCanTakeTheDecoratorOffAndUseTheDatabaseItself() async throws {
        let setUp = { (root: Container) in
            root.removeDecorator(named: "store-timing", from: \.notesStore)
        }
        try await withServer(setUp: setUp) { client, root in
            let created = try await client.execute(
                uri: "/notes", method: .post, body: json(#"{"text": "buy milk"}"#))
            #expect(created.status == .created)
            #expect(root.storeTimings().current.isEmpty)
            let store = try await root.notesStore()
            #expect(store as? NotesDatabase === (try await root.database()))
        }
    }

    @Test func createReadAndList() async throws {
        try await withServer { client, _ in
            let created = try await client.execute(
                uri: "/notes", method: .post, body: json(#"{"text": "buy milk"}"#))
            #expect(created.status == .created)
            let note = try decode(Note.self, created.body)
            #expect(note.text == "buy milk")
            let read = try await client.execute(uri: "/notes/\(note.id)", method: .get)
            #expect(try decode(Note.self, read.body) == note)
            _ = try await client.execute(
                uri: "/notes", method: .post, body: json(#"{"text": "call Ada"}"#))
            let list = try await client.execute(uri: "/notes", method: .get)
            #expect(try decode([Note].self, list.body).map(\.text) == ["buy milk", "call Ada"])
        }
    }

    @Test func eachRequestHasItsOwnInstancesSharedWithinIt() async throws {
        try await withServer { client, _ in
            var ids: [String] = []
            for _ in 0..<3 {
                let response = try await client.execute(uri: "/notes", method: .get)
                let id = try #require(response.headers[.requestID])
                // The handler's and the unit of work's request info: one instance.
                #expect(response.headers[.unitOfWorkRequestID] == id)
                ids.append(id)
            }
            #expect(Set(ids).count == 3)
        }
    }

    @Test func concurrentRequestsOpenTheDatabaseOnceAndTearEachRequestDown() async throws {
        let stats = try await withServer { client, root in
            let port = try #require(client.port)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        try await TestClient.withClient(host: "localhost", port: port) { http in
                            let response = try await http.post(
                                "/notes", body: json(#"{"text": "note \#(index)"}"#))
                            #expect(response.status == .created)
                        }
                    }
                }
                try await group.waitForAll()
            }
            let list = try await client.execute(uri: "/notes", method: .get)
            #expect(try decode([Note].self, list.body).count == 20)
            let stats = root.serverStats().current
            #expect(stats.databaseOpens == 1)
            // Every request so far (20 posts, 1 list) started a unit of work and finished it.
            #expect(stats.unitsStarted == 21)
            #expect(stats.unitsFinished == 21)
        }
        // Stopped gracefully: the database is closed, once.
        #expect(stats.current.databaseCloses == 1)
    }

    @Test func badInputGetsAClear400AndLeavesTheDataIntact() async throws {
        try await withServer { client, _ in
            _ = try await client.execute(
                uri: "/notes", method: .post, body: json(#"{"text": "keep me"}"#))
            let notJSON = try await client.execute(
                uri: "/notes", method: .post, body: json("buy milk"))
            #expect(notJSON.status == .badRequest)
            #expect(String(buffer: notJSON.body).contains(#"expected JSON like {\"text\""#))
            let empty = try await client.execute(
                uri: "/notes", method: .post, body: json(#"{"text": "   "}"#))
            #expect(empty.status == .badRequest)
            #expect(String(buffer: empty.body).contains("1 to 1000 characters"))
            let badID = try await client.execute(uri: "/notes/abc", method: .get)
            #expect(badID.status == .badRequest)
            let missing = try await client.execute(uri: "/notes/99", method: .get)
            #expect(missing.status == .notFound)
            #expect(String(buffer: missing.body).contains("no note with id 99"))
            let list = try await client.execute(uri: "/notes", method: .get)
            #expect(try decode([Note].self, list.body).map(\.text) == ["keep me"])
        }
    }

    @Test func anOversizedBodyGets413AndSaysTheLimit() async throws {
        try await withServer { client, _ in
            let text = String(repeating: "a", count: 20 << 20)
            let huge = try await client.execute(
                uri: "/notes", method: .post, body: json(#"{"text": "\#(text)"}"#))
            #expect(huge.status == .contentTooLarge)
            #expect(String(buffer: huge.body).contains("at most 65536 bytes"))
            let list = try await client.execute(uri: "/notes", method: .get)
            #expect(try decode([Note].self, list.body).isEmpty)
        }
    }
}
