/// One in-flight creation of a scoped instance: the "once-cell" other threads wait on.
///
/// The creating thread locks `gate` before it publishes the creation and unlocks it when the
/// instance is stored, so a waiter blocks exactly until then, without polling.
// @unchecked Sendable: `owner` is read and written only under `Creation.waitGraph`; `gate` is a mutex.
final class Creation: @unchecked Sendable {
    /// Guards every `owner` and every `ResolutionFrame.waitingOn`: the wait-for graph that lets a
    /// waiter see that it would wait for itself. Taken only when a creation starts to be waited
    /// on or ends, never on a cache hit.
    static let waitGraph = Mutex()

    private let gate = Mutex()
    private var owner: ResolutionFrame?
    let step: ResolutionStep
    let scope: ObjectIdentifier

    /// Makes a creation owned by `frame`; the caller holds the lock of the table it goes into.
    init(owner frame: ResolutionFrame, step: ResolutionStep, scope: ObjectIdentifier) {
        self.owner = frame
        self.step = step
        self.scope = scope
        gate.lock()
    }

    /// Ends the creation and wakes every waiter.
    func finish() {
        Self.waitGraph.lock()
        owner = nil
        Self.waitGraph.unlock()
        gate.unlock()
    }

    /// Blocks until the creating thread has finished, or stops the process when waiting would
    /// close a circle of threads each waiting for another (a circular dependency split across
    /// threads, or a thread re-entering its own creation through another container).
    func wait(by frame: ResolutionFrame) {
        if let circle = enterWait(by: frame) {
            frame.failCircularWait(on: circle)
        }
        gate.lock()
        gate.unlock()
        Self.waitGraph.lock()
        frame.waitingOn = nil
        Self.waitGraph.unlock()
    }

    /// Records that `frame` waits for this creation, or returns the creations of the circle that
    /// waiting would close.
    private func enterWait(by frame: ResolutionFrame) -> [ResolutionStep]? {
        Self.waitGraph.lock()
        defer { Self.waitGraph.unlock() }
        var creation: Creation? = self
        var steps: [ResolutionStep] = []
        while let current = creation, let owner = current.owner {
            steps.append(current.step)
            if owner === frame { return steps }
            creation = owner.waitingOn
        }
        frame.waitingOn = self
        return nil
    }
}
