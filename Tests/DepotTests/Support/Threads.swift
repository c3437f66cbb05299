import Depot
import Foundation

/// Runs `body` on `count` new threads, released together once all have started, and waits for
/// all of them. Returns the results in thread order.
func runOnThreads<Result: Sendable>(
    _ count: Int, _ body: @escaping @Sendable (Int) -> Result
) -> [Result] {
    let results = Locked([Result?](repeating: nil, count: count))
    let ready = DispatchGroup()
    let done = DispatchGroup()
    let start = DispatchSemaphore(value: 0)
    for index in 0..<count {
        ready.enter()
        done.enter()
        let thread = Thread {
            ready.leave()
            start.wait()
            // Scoped, so the thread lets go of the result before the caller is told it is done.
            do {
                let result = body(index)
                results.withLock { $0[index] = result }
            }
            done.leave()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
    ready.wait()
    for _ in 0..<count { start.signal() }
    done.wait()
    // Take the results out of the box: the exiting threads' closures still hold the box, and
    // must not keep a weakly held instance alive into the caller's next round.
    return results.withLock { results in
        defer { results = [] }
        return results.map { $0! }
    }
}

/// Runs `body` on a new thread and returns at once.
func startThread(_ body: @escaping @Sendable () -> Void) {
    let thread = Thread(block: body)
    thread.start()
}

/// How long a test waits for something that must happen, in seconds: only a hang gets there, on
/// any number of cores, in any build, under ThreadSanitizer, with the rest of the suite running
/// beside it. A test never waits this long to pass.
let hangLimit = 120.0

/// Whether `semaphore` is signalled within `seconds`.
func signalled(_ semaphore: DispatchSemaphore, within seconds: Double) -> Bool {
    semaphore.wait(timeout: .now() + seconds) == .success
}

/// A creation held open: its factory is running on another thread and waits for `release()`.
final class BlockedCreation: Sendable {
    /// How often the registered closure ran.
    let calls = Counter()
    /// What the blocked thread resolved, once it has finished.
    let result = Locked<Thing?>(nil)
    private let started = DispatchSemaphore(value: 0)
    private let gate = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)

    /// Registers on `factory` a closure whose first call blocks until `release()`, and resolves
    /// the factory on a new thread.
    init(_ factory: Factory<Thing>) {
        factory.register { [calls, started, gate] in
            calls.increment()
            if calls.value == 1 {
                started.signal()
                gate.wait()
            }
            return Thing()
        }
        startThread { [result, done] in
            result.withLock { $0 = factory() }
            done.signal()
        }
    }

    /// Whether the closure started running before the ``hangLimit``.
    func waitUntilStarted() -> Bool { signalled(started, within: hangLimit) }

    /// Lets the closure finish.
    func release() { gate.signal() }

    /// Whether the blocked thread finished before the ``hangLimit``.
    func waitUntilFinished() -> Bool { signalled(done, within: hangLimit) }
}

/// Starts `count` threads that each resolve with `resolve` (a creation blocked elsewhere, which
/// they wait for), and gives them time to start waiting. Returns the group they leave when they
/// have resolved, and the instances they got.
func startWaiters(
    _ count: Int, resolving resolve: @escaping @Sendable () -> Thing
) -> (done: DispatchGroup, seen: Locked<[ObjectIdentifier]>) {
    let done = DispatchGroup()
    let seen = Locked<[ObjectIdentifier]>([])
    for _ in 0..<count {
        done.enter()
        startThread {
            let thing = resolve()
            seen.withLock { $0.append(ObjectIdentifier(thing)) }
            done.leave()
        }
    }
    usleep(20_000)
    return (done, seen)
}
