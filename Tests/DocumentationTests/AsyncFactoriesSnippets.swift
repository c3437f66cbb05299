import Depot
import DepotTesting
import Testing

// The snippets of AsyncFactories.md.

struct PoolSettings: Sendable {
    let path: String
}

/// A pool that connects asynchronously and must be closed.
actor Pool {
    nonisolated let path: String
    private(set) var isOpen = true
    private(set) var members: [Int: String] = [42: "Ada"]

    private init(path: String) { self.path = path }

    static func connect(_ poolSettings: PoolSettings) async throws -> Pool {
        try await Task.sleep(for: .milliseconds(1))
        return Pool(path: poolSettings.path)
    }

    static func inMemory() async throws -> Pool { Pool(path: ":memory:") }

    func close() async throws { isOpen = false }

    func name(of id: Int) throws -> String {
        guard let name = members[id] else { throw MemberNotFound(id: id) }
        return name
    }
}

struct MemberNotFound: Error {
    let id: Int
}

struct Member: Sendable {
    let id: Int
    let name: String

    static func load(_ id: Int, from pool: Pool) async throws -> Member {
        Member(id: id, name: try await pool.name(of: id))
    }
}

final class Reports: Sendable {
    let pool: Pool
    init(pool: Pool) { self.pool = pool }
}

extension Container {
    var poolSettings: Factory<PoolSettings> { self { PoolSettings(path: "app.db") }.singleton }
    var pool: AsyncFactory<Pool> {
        self { try await Pool.connect(self.poolSettings()) }
            .singleton
            .onDispose { try await $0.close() }
    }
    var members: AsyncParameterFactory<Int, Member> {
        self { id in try await Member.load(id, from: self.pool()) }
    }
}

extension Container {
    var reports: Factory<Reports> { self { Reports(pool: try! self.pool.warmed()) } }
}

/// What a feed's teardown writes.
actor FeedLog {
    private(set) var lines: [String] = []
    func note(_ line: String) { lines.append(line) }
}

/// A feed that its log follows to its close.
final class Feed: Sendable {
    let log: FeedLog
    init(log: FeedLog) { self.log = log }
    func close() async { await log.note("closed") }
}

extension Container {
    var feedLog: Factory<FeedLog> { self { FeedLog() }.cached }
    var feed: Factory<Feed> {
        // The disposer uses what the feed holds, not `self.feedLog()`.
        self { Feed(log: self.feedLog()) }.cached.onDispose { await $0.close() }
    }
}

@Suite(.container) struct AsyncFactoriesSnippets {
    /// The disposer captures nothing of the container: a lifetime scope let go of without
    /// `shutdown()` is released, and its feed closed.
    @Test func aDisposerUsesWhatItsInstanceHolds() async throws {
        let log: FeedLog
        do {
            let scope = Container.shared.newLifetimeScope()
            _ = scope.feed()
            log = scope.feedLog()
        }
        for _ in 0..<500 where await log.lines.isEmpty {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(await log.lines == ["closed"])
    }

    @Test func declaringAndResolving() async throws {
        let pool = try await Container.shared.pool()
        let member = try await Container.shared.members(42)
        #expect(pool.path == "app.db")
        #expect(member.name == "Ada")
        #expect(try await Container.shared.pool() === pool)
    }

    @Test func registering() async throws {
        Container.shared.pool.register { try await Pool.inMemory() }
        #expect(try await Container.shared.pool().path == ":memory:")
    }

    @Test func warmUp() async throws {
        try await Container.shared.warmUp(\.pool)
        let reports = Container.shared.reports()
        #expect(reports.pool === (try await Container.shared.pool()))
    }

    @Test func teardown() async throws {
        let pool = try await Container.shared.pool()
        let errors = await Container.shared.shutdown()
        #expect(errors.isEmpty)
        // Singletons are the process's (here the test's): the scope shuts them down.
        #expect(await pool.isOpen)
        await Scope.singleton.shutdown()
        #expect(await !pool.isOpen)
    }
}
