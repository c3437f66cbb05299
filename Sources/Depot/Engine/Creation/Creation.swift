/// What the table's slot of a creation in flight holds, sync (``Creation``) or async
/// (``AsyncCreation``): the step it makes and the scope it keeps the instance in.
@usableFromInline
protocol CreationInFlight: AnyObject {
    var step: ResolutionStep { get }
    var scope: ObjectIdentifier { get }
}

/// A synchronous creation: threads that ask for its instance meanwhile wait on a condition the
/// first waiter makes, with the lock of the creation's table.
// @unchecked Sendable: `isFinished` and `condition` are read and written only under the lock of
// the creation's table; `owner`, once the creation is in its table, only under
// `Creation.waitGraph`.
@usableFromInline
final class Creation: CreationInFlight, @unchecked Sendable {
    /// Guards every `owner` and `ResolutionFrame.waitingOn`: the wait-for graph, in which a
    /// waiter sees that it would wait for itself.
    static let waitGraph = Mutex()

    @usableFromInline let step: ResolutionStep
    @usableFromInline let scope: ObjectIdentifier
    private var owner: ResolutionFrame?
    private var isFinished = false
    private var condition: Condition?

    @usableFromInline
    init(step: ResolutionStep, scope: Scope, creator: ResolutionFrame) {
        (self.step, self.scope, owner) = (step, ObjectIdentifier(scope), creator)
    }

    /// Readies the creation for a waiter that found it, under the lock of its table.
    func prepareForWaiter() {
        if condition == nil { condition = Condition() }
    }

    /// Marks the creation finished and wakes its waiting threads, under its table's lock;
    /// returns whether any waited.
    @usableFromInline
    func markFinished() -> Bool {
        isFinished = true
        condition?.broadcast()
        return condition != nil
    }

    /// Ends the creation for the waiters' cycle checks, after ``markFinished()`` said any waited.
    @usableFromInline
    func finish() {
        Self.waitGraph.lock()
        owner = nil
        Self.waitGraph.unlock()
    }

    /// Blocks until the creating thread has finished, or stops the process when waiting would
    /// close a circle of threads each waiting for another.
    @usableFromInline
    func wait(by frame: ResolutionFrame, in table: some InstanceOwner) {
        if let circle = enterWait(by: frame) {
            // This thread's own creation: a cycle of this thread.
            frame.failOnFirstCycle()
            ResolutionStep.failCircularWait(path: frame.path, circle: circle, across: "threads")
        }
        // Made by the lookup that found the creation, under the table's lock.
        table.wait(on: condition!) { isFinished }
        Self.waitGraph.lock()
        frame.waitingOn = nil
        frame.waitingPath = []
        Self.waitGraph.unlock()
    }

    /// Records that `frame` waits for this creation, or returns the circle's steps from this
    /// creation back to one that `frame` is making.
    private func enterWait(by frame: ResolutionFrame) -> [ResolutionStep]? {
        Self.waitGraph.lock()
        defer { Self.waitGraph.unlock() }
        var creation: Creation? = self
        var steps: [ResolutionStep] = []
        // A finished creation has no owner, and its creator waits for nothing more.
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
