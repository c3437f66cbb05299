/// One key's creation in flight, synchronous or async, as one state machine that every resolve
/// asking for the key's instance meanwhile shares: a thread waits for it by blocking, a task by
/// suspending. A synchronous creation runs on the thread that recorded it; an async one in a
/// task of its own (`asyncInstance`), so a cancelled waiter, the one that started it included,
/// throws `CancellationError` at once and never cancels, fails or repeats it.
// @unchecked Sendable: `waiting` and `condition` are set once, under the lock of the
// creation's table (by its first waiter; for an awaited creation, in `init`), and read by a
// waiter after it found the creation under that lock, or by the creator after its table's
// `finish` said that a waiter came; what they guard is under `waiting`'s own lock. `outer` is
// followed only by the thread carrying the creation out. The value a creation ends with is
// shared by every waiter as a cached instance is shared by every resolve (see
// `FactoryRegistration`).
@usableFromInline
final class Creation: @unchecked Sendable {
    private typealias Suspended = CheckedContinuation<Unchecked<Any>, any Error>

    /// What the waiters share: the result once there, and the tasks suspended until then.
    private struct Waiting {
        /// A synchronous creation ends with `()`: a blocked thread looks the key up again, as
        /// the instance may be kept weakly, or not at all.
        var result: Result<Any, any Error>?
        var suspended: [Int: Suspended] = [:]
        /// Tasks cancelled before they suspended.
        var cancelled: Set<Int> = []
        var nextWaiter = 0

        /// Ends the creation with `result`: returns the tasks to resume with it.
        mutating func finish(_ result: Result<Any, any Error>) -> [Suspended] {
            self.result = result
            cancelled = []
            defer { suspended = [:] }
            return Array(suspended.values)
        }

        /// A number for a new waiting task.
        mutating func newWaiter() -> Int {
            nextWaiter += 1
            return nextWaiter
        }

        /// Keeps `task` until the result is there, or returns what to resume it with now.
        mutating func suspend(_ task: Suspended, id: Int) -> Result<Any, any Error>? {
            if let result { return result }
            if cancelled.remove(id) != nil { return .failure(CancellationError()) }
            suspended[id] = task
            return nil
        }

        /// Cancels task `id`: returns it to resume with cancellation, if it is suspended.
        mutating func cancel(_ id: Int) -> Suspended? {
            guard result == nil else { return nil }
            guard let task = suspended.removeValue(forKey: id) else {
                cancelled.insert(id)
                return nil
            }
            return task
        }
    }

    let step: ResolutionStep
    let scope: ObjectIdentifier
    /// Whether an async factory's task makes it, rather than a thread.
    let isAsync: Bool
    /// For a synchronous creation, the one its thread was carrying out when it started, if
    /// any: the thread's creations, innermost first, are a list through this.
    let outer: Creation?
    /// Made by the first waiter: a creation nobody waits for allocates nothing more.
    private var waiting: Locked<Waiting>?
    /// What blocked threads wait on, with `waiting`'s lock.
    private var condition: Condition?

    /// A creation that a thread carries out inside `outer`, the one it is carrying out now.
    init(step: ResolutionStep, scope: Scope, inside outer: Creation?) {
        (self.step, self.scope, isAsync, self.outer) = (step, ObjectIdentifier(scope), false, outer)
    }

    /// An async creation, carried out by a task: one of its own, which its asker waits for as
    /// every other task does (`isAwaited`), or the asker's, which only the tasks that come for
    /// it meanwhile wait for (a graph's instance).
    init(step: ResolutionStep, scope: Scope, isAwaited: Bool) {
        (self.step, self.scope, isAsync, outer) = (step, ObjectIdentifier(scope), true, nil)
        if isAwaited { waiting = Self.newWaiting() }
    }

    /// The waiters' state, made apart so that making a creation stays small.
    @inline(never)
    private static func newWaiting() -> Locked<Waiting> {
        Locked(Waiting())
    }

    /// Readies the creation for a waiter that found it, under the lock of its table.
    func prepareForWaiter() {
        guard waiting == nil else { return }
        waiting = Self.newWaiting()
        // Only threads block.
        if !isAsync { condition = Condition() }
    }

    /// Whether a waiter came, read under the table's lock as the creation leaves it: then its
    /// creator calls ``finish(_:)`` after the lock.
    var hasWaiters: Bool { waiting != nil }

    /// Ends the creation with `result`, waking the threads blocked on it and resuming the tasks
    /// suspended on it.
    func finish(_ result: Result<Any, any Error>) {
        let tasks = waiting!.withLock { waiting in
            defer { condition?.broadcast() }
            return waiting.finish(result)
        }
        for task in tasks {
            switch result {
            case .success(let value): task.resume(returning: Unchecked(value))
            case .failure(let error): task.resume(throwing: error)
            }
        }
    }

    /// Blocks until the creating thread has finished, or stops the process when waiting would
    /// close a circle of threads each waiting for another.
    func wait(by frame: ResolutionFrame) {
        guard !isAsync else {
            fatalError("Depot: \(frame.top) is being created by an async factory.")
        }
        // The thread's path ends with this creation's step, which the graph adds itself.
        let making = frame.making.map { Array(sequence(first: $0, next: \.outer)) } ?? []
        let wait = WaitGraph.enter(
            making: making, path: frame.path.dropLast(), waitingFor: self, across: "threads")
        defer { WaitGraph.leave(wait) }
        waiting!.wait(on: condition!) { $0.result != nil }
    }

    /// Suspends until the creation ends, or the calling task is cancelled. `waiter` is the
    /// resolution that waits, for the cycle check across tasks.
    func value<T>(for waiter: AsyncResolution?, as type: T.Type) async throws -> T {
        guard isAsync else {
            fatalError("Depot: \(step) is being created by a synchronous factory.")
        }
        let wait = WaitGraph.enter(
            making: waiter?.creations ?? [], path: waiter?.path ?? [], waitingFor: self,
            across: "tasks")
        defer { WaitGraph.leave(wait) }
        let waiting = waiting!
        let id = waiting.withLock { $0.newWaiter() }
        let value = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { task in
                switch waiting.withLock({ $0.suspend(task, id: id) }) {
                case .success(let value): task.resume(returning: Unchecked(value))
                case .failure(let error): task.resume(throwing: error)
                case nil: break
                }
            }
        } onCancel: {
            waiting.withLock { $0.cancel(id) }?.resume(throwing: CancellationError())
        }
        // The creation made a `T`: the key names it.
        return value.value as! T
    }
}

/// A value handed between tasks where Depot's own rules (not the type system) make that safe;
/// each use says why.
struct Unchecked<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}
