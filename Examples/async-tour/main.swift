// Async factories in one container with synchronous ones: exactly once over a thousand tasks, a
// cancelled waiter, an error that is not kept, warm-up for a synchronous factory, and teardown
// in reverse creation order. Every step checks what it prints and stops if it does not hold.
import Depot
import Foundation

/// Counts and orders what happens, from any task.
final class Log: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    private var counts: [String: Int] = [:]

    func count(_ name: String) -> Int {
        lock.withLock {
            counts[name, default: 0] += 1
            return counts[name]!
        }
    }
    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var entries: [String] { lock.withLock { lines } }
}

let log = Log()

/// A connection pool that takes a while to open and must be closed.
actor Pool {
    let number: Int
    private(set) var isOpen = true
    init(number: Int) { self.number = number }
    func close() { isOpen = false }
}

/// A token fetched from a server that is down the first time.
struct Token: Sendable {
    let value: String
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
            let number = log.count("pool")
            try await Task.sleep(for: .milliseconds(50))
            return Pool(number: number)
        }
        .cached
        .onDispose { pool in
            await pool.close()
            log.append("closed pool")
        }
    }
    var token: AsyncFactory<Token> {
        self {
            if log.count("token") == 1 { throw ServerDown() }
            return Token(value: "secret")
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

// A thousand tasks at once: one creation, one pool.
let numbers = try await withThrowingTaskGroup(of: Int.self) { group in
    for _ in 0..<1000 { group.addTask { try await container.pool().number } }
    var numbers = Set<Int>()
    for try await number in group { numbers.insert(number) }
    return numbers
}
check(numbers == [1], "1,000 concurrent resolves made one pool")

// A reset disposes what it drops, in a task of its own.
container.pool.reset()
for _ in 0..<500 where log.entries.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
check(log.entries == ["closed pool"], "the reset closed pool 1")

// A cancelled waiter throws at once; the creation goes on for the others.
let first = Task { try await container.pool() }
let cancelled = Task { try await container.pool() }
cancelled.cancel()
let cancelledResult = await cancelled.result
check((try? cancelledResult.get()) == nil, "the cancelled waiter threw")
let pool = try await first.value
check(pool.number == 2, "the creation went on: pool \(pool.number)")

// An error reaches the caller and is not kept; the next resolve tries again.
let failed = await Result { try await container.token() }
check((try? failed.get()) == nil, "the first token fetch failed")
check(try await container.token().value == "secret", "the retry fetched the token")

// A synchronous factory uses the pool once it is warmed up.
try await container.warmUp(\.pool)
check(container.reports().pool === pool, "the synchronous factory got the warmed-up pool")

// Teardown: newest first, each once; the container is usable after.
let errors = await container.shutdown()
check(errors.isEmpty, "shutdown reported no errors")
check(
    log.entries == ["closed pool", "closed reports", "closed pool"],
    "shutdown disposed newest first: the reports, then pool 2")
check(await !pool.isOpen, "the pool is closed")
check(try await container.pool() !== pool, "after shutdown a new pool is made")
print("async-tour: all checks passed")

extension Result where Failure == any Error {
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
