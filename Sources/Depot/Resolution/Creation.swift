/// One in-flight creation of a scoped instance, as an instance table keeps it: the "once-cell"
/// others wait on. A ``Creation`` for a synchronous factory, an ``AsyncCreation`` for an async
/// one.
// @unchecked Sendable: immutable here; subclasses say why theirs is safe.
@usableFromInline
class PendingCreation: @unchecked Sendable {
    let step: ResolutionStep
    let scope: ObjectIdentifier

    init(step: ResolutionStep, scope: ObjectIdentifier) {
        self.step = step
        self.scope = scope
    }

    /// Notes that a thread will wait for this creation: under the lock of the table that
    /// holds it, where the thread found it.
    func noteWaiter() {}

    /// Marks the creation finished and wakes the threads waiting for it, under the lock of the
    /// table it was made in; returns whether any waited. An async creation's waiters are woken
    /// by its result instead.
    @usableFromInline
    func markFinished() -> Bool { false }
}

/// One in-flight creation by a synchronous factory: other threads block on it.
///
/// Whether it has finished, and the condition waiters sleep on, are read and written under the
/// lock of the instance table it was made in: a thread that finds the creation there notes
/// itself as a waiter, the creator marks it finished there as it keeps the instance, and a
/// waiter sleeps on the condition with that lock. A creation nobody waits for (nearly all)
/// makes no condition and takes no lock of its own.
// @unchecked Sendable: `isFinished` and `condition` are read and written only under the lock of
// the creation's table; `owner` only under `Creation.waitGraph` once a waiter may read it (see
// `finish(hadWaiters:)`).
@usableFromInline
final class Creation: PendingCreation, @unchecked Sendable {
    /// Guards every `owner` that a waiter may read and every `ResolutionFrame.waitingOn`: the
    /// wait-for graph that lets a waiter see that it would wait for itself. Taken only when a
    /// creation is waited on, never on a cache hit or an uncontended creation.
    static let waitGraph = Mutex()

    private var owner: ResolutionFrame?
    private var isFinished = false
    private var condition: Condition?

    /// Makes a creation owned by `frame`; the caller holds the lock of the table it goes into.
    @usableFromInline
    init(owner frame: ResolutionFrame, step: ResolutionStep, scope: ObjectIdentifier) {
        self.owner = frame
        super.init(step: step, scope: scope)
    }

    override func noteWaiter() {
        if condition == nil {
            condition = Condition()
        }
    }

    @usableFromInline
    override func markFinished() -> Bool {
        isFinished = true
        guard let condition else { return false }
        condition.broadcast()
        return true
    }

    /// Ends the creation for the waiters' cycle checks, after ``markFinished()`` returned
    /// `hadWaiters`. Only a waiter noted before then can reach the creation's `owner` (through
    /// the creation itself or a waiting thread's `waitingOn`), so only then is `waitGraph` taken
    /// to clear it.
    @usableFromInline
    func finish(hadWaiters: Bool) {
        if hadWaiters {
            Self.waitGraph.lock()
            owner = nil
            Self.waitGraph.unlock()
        } else {
            owner = nil
        }
    }

    /// Blocks until the creating thread has finished, or stops the process when waiting would
    /// close a circle of threads each waiting for another (a circular dependency split across
    /// threads, or a thread re-entering its own creation through another container). The
    /// caller noted itself as a waiter when it found the creation in `table`.
    @usableFromInline
    func wait(by frame: ResolutionFrame, in table: some InstanceOwner) {
        if let circle = enterWait(by: frame) {
            // This thread's own creation, on its path since the step that closes the cycle was
            // pushed (pushes are checked only at some depths): a cycle of this thread.
            frame.failOnFirstCycle()
            frame.failCircularWait(continuingWith: circle)
        }
        if let condition {
            table.wait(on: condition) { isFinished }
        }
        Self.waitGraph.lock()
        frame.waitingOn = nil
        frame.waitingPath = []
        Self.waitGraph.unlock()
    }

    /// Records that `frame` waits for this creation, or, if waiting would close a circle of
    /// threads, returns the steps the other threads took from this creation back to one that
    /// `frame` is making.
    private func enterWait(by frame: ResolutionFrame) -> [ResolutionStep]? {
        Self.waitGraph.lock()
        defer { Self.waitGraph.unlock() }
        var creation: Creation? = self
        var steps: [ResolutionStep] = []
        // Every creation reached has a waiter noted (this thread, or the thread whose
        // `waitingOn` led here), so its creator clears `owner` under this lock; a finished one
        // has none, and its creator waits for nothing more.
        while let current = creation, let owner = current.owner {
            if owner === frame {
                // Back on this thread: the step is on its path (and already in `steps` unless
                // this thread re-entered its own creation directly).
                if steps.isEmpty { steps.append(current.step) }
                return steps
            }
            // The owner's path runs through the step it is creating, to the one it waits for.
            let path = owner.waitingPath
            if let start = path.lastIndex(where: { $0.isSameResolution(as: current.step) }) {
                steps += path[path.index(after: start)...].dropLast()
            }
            creation = owner.waitingOn
            if let next = creation { steps.append(next.step) }
        }
        frame.waitingOn = self
        frame.waitingPath = frame.path
        return nil
    }
}
