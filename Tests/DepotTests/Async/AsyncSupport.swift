import Depot
import Foundation

/// A container for the async tests: each test makes its own, so they run in parallel.
final class AsyncContainer: SharedContainer {
    @TaskLocal static var shared = AsyncContainer()
    let manager = ContainerManager()
    /// How many times each factory ran.
    let made = Counter()
    /// Opened by a test to let a blocked creation finish.
    let gate = AsyncGate()
    /// Counts the resolves that reached a waiting creation, for the cancellation tests.
    /// What the disposers did, in order.
    let journal = Journal()
}

/// An instance of an async factory.
final class Connection: Sendable {
    let name: String
    init(_ name: String) { self.name = name }
}

/// Something that depends on other instances.
final class ConnectionPair: Sendable {
    let first: Connection
    let second: Connection
    init(_ first: Connection, _ second: Connection) {
        self.first = first
        self.second = second
    }
}

struct Failure: Error, Equatable {
    let message: String
}

/// A gate tasks wait at until it is opened: suspends, never blocks a thread.
final class AsyncGate: @unchecked Sendable {
    private let state = Locked<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>(
        (false, []))

    func wait() async {
        await withCheckedContinuation { continuation in
            let isOpen = state.withLock { state in
                if !state.isOpen { state.waiters.append(continuation) }
                return state.isOpen
            }
            if isOpen { continuation.resume() }
        }
    }

    func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

/// Records what disposers did, in order.
final class Journal: @unchecked Sendable {
    private let lines = Locked<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var entries: [String] { lines.withLock { $0 } }

    /// Waits (polling, with a limit) until `count` entries are there.
    func wait(for count: Int) async throws {
        let deadline = Date().addingTimeInterval(hangLimit)
        while entries.count < count, Date() < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}

extension AsyncContainer {
    var connection: AsyncFactory<Connection> {
        self {
            self.made.increment()
            await Task.yield()
            return Connection("live")
        }
    }
    var cachedConnection: AsyncFactory<Connection> {
        self {
            self.made.increment()
            await Task.yield()
            return Connection("cached")
        }.cached
    }
    /// Waits at the gate: a creation that lasts until the test opens it.
    var slowConnection: AsyncFactory<Connection> {
        self {
            self.made.increment()
            await self.gate.wait()
            return Connection("slow")
        }.cached
    }
    var singletonConnection: AsyncFactory<Connection> {
        self {
            self.made.increment()
            try await Task.sleep(for: .milliseconds(20))
            return Connection("singleton")
        }.singleton
    }
    var sharedConnection: AsyncFactory<Connection> {
        self { Connection("shared") }.shared
    }
    var graphConnection: AsyncFactory<Connection> {
        self {
            await Task.yield()
            return Connection("graph")
        }.graph
    }
    /// Two graph-scoped connections, resolved in child tasks after an await.
    var graphPair: AsyncFactory<ConnectionPair> {
        self {
            async let first = self.graphConnection()
            await Task.yield()
            let second = try await self.graphConnection()
            return ConnectionPair(try await first, second)
        }
    }
    var failingOnce: AsyncFactory<Connection> {
        self {
            self.made.increment()
            await self.gate.wait()
            if self.made.value == 1 { throw Failure(message: "first try") }
            return Connection("second try")
        }.cached
    }
    var account: AsyncParameterFactory<Int, Connection> {
        self { id in
            self.made.increment()
            return Connection("account \(id)")
        }.cached.scopeOnParameters
    }
    /// One instance per parameter value, each made only once ``gate`` opens.
    var gatedAccount: AsyncParameterFactory<Int, Connection> {
        self { id in
            self.made.increment()
            await self.gate.wait()
            return Connection("account \(id)")
        }.cached.scopeOnParameters
    }
    /// A synchronous factory that uses an async one's instance.
    var repository: Factory<ConnectionPair> {
        self { ConnectionPair(try! self.cachedConnection.warmed(), Connection("sync")) }
    }
    var syncGraph: Factory<Connection> { self { Connection("sync graph") }.graph }
    /// An async factory that resolves the synchronous graph factory twice, once inside another
    /// synchronous factory, across an await.
    var mixedGraph: AsyncFactory<ConnectionPair> {
        self {
            let first = self.syncGraph()
            await Task.yield()
            return ConnectionPair(first, self.syncHolder().first)
        }
    }
    /// A synchronous graph factory slow enough that two child tasks ask for it at once.
    var slowSyncGraph: Factory<Connection> {
        self {
            self.made.increment()
            usleep(20_000)
            return Connection("slow sync graph")
        }.graph
    }
    /// An async factory whose child tasks resolve the slow synchronous graph factory at once.
    var concurrentSyncGraph: AsyncFactory<ConnectionPair> {
        self {
            async let first = Task { self.slowSyncGraph() }.value
            let second = await Task { self.slowSyncGraph() }.value
            return ConnectionPair(await first, second)
        }
    }
    /// An async factory whose 100 child tasks resolve the slow synchronous graph factory and the
    /// async one at once: the identifiers of what each got.
    var manyChildTasksInOneGraph: AsyncFactory<[ObjectIdentifier]> {
        self {
            try await withThrowingTaskGroup(of: [ObjectIdentifier].self) { group in
                for _ in 0..<100 {
                    group.addTask {
                        let sync = self.slowSyncGraph()
                        let async = try await self.graphConnection()
                        return [ObjectIdentifier(sync), ObjectIdentifier(async)]
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
        }
    }
    var syncHolder: Factory<ConnectionPair> {
        self { ConnectionPair(self.syncGraph(), Connection("holder")) }
    }
}
