// Async factories beside synchronous ones: one creation for a thousand tasks, a cancelled
// waiter, an error that is not kept, warm-up for a synchronous factory, and teardown newest
// first. Each step prints what it checks and stops the program if it does not hold.
import Depot
import Foundation

/// What happened, in order, from any task.
final class Log: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var entries: [String] { lock.withLock { lines } }
    func count(_ prefix: String) -> Int { entries.filter { $0.hasPrefix(prefix) }.count }
}
let log = Log()

/// A pool that takes a while to open and must be closed.
actor Pool {
    private(set) var isOpen = true
    func close() { isOpen = false }
}
struct ServerDown: Error {}
/// A synchronous service that uses the pool once it exists.
final class Reports: Sendable {
    let pool: Pool
    init(pool: Pool) { self.pool = pool }
}

extension Container {
    var pool: AsyncFactory<Pool> {
        self {
            log.append("open pool")
            try await Task.sleep(for: .milliseconds(50))
            return Pool()
        }.cached.onDispose {
            await $0.close(); log.append("closed pool")
        }
    }
    var token: AsyncFactory<String> {
        self {
            log.append("fetch token")
            if log.count("fetch token") == 1 { throw ServerDown() }
            return "secret"
        }.cached
    }
    var reports: Factory<Reports> {
        self { Reports(pool: try! self.pool.warmed()) }.cached.onDispose { _ in
            log.append("closed reports")
        }
    }
}

func check(_ condition: Bool, _ message: String) {
    print((condition ? "ok   " : "FAIL ") + message)
    precondition(condition, message)
}

let container = Container()
let pools = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
    for _ in 0..<1000 { group.addTask { ObjectIdentifier(try await container.pool()) } }
    var pools = Set<ObjectIdentifier>()
    for try await pool in group { pools.insert(pool) }
    return pools
}
check(pools.count == 1 && log.count("open pool") == 1, "1,000 concurrent resolves opened one pool")

container.pool.reset()  // a reset disposes what it drops, in a task of its own
for _ in 0..<500 where log.count("closed") == 0 { try await Task.sleep(for: .milliseconds(10)) }
check(log.count("closed pool") == 1, "the reset closed the first pool")

let first = Task { try await container.pool() }
let cancelled = Task { try await container.pool() }
cancelled.cancel()
check((try? await cancelled.value) == nil, "the cancelled waiter threw at once")
let pool = try await first.value
check(log.count("open pool") == 2, "the creation went on for the other waiter")

check((try? await container.token()) == nil, "the first token fetch failed")
check(try await container.token() == "secret", "the error was not kept: the retry fetched it")

try await container.warmUp(\.pool)
check(container.reports().pool === pool, "the synchronous factory got the warmed-up pool")

let errors = await container.shutdown()
check(errors.isEmpty, "shutdown reported no errors")
check(log.entries.suffix(2) == ["closed reports", "closed pool"], "shutdown disposed newest first")
check(await !pool.isOpen, "the pool is closed")
check(try await container.pool() !== pool, "after shutdown a new pool is made")
print("async-tour: all checks passed")
