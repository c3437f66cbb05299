internal import CDepotAtomics

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
}

/// One in-flight creation by a synchronous factory: other threads block on it.
///
/// The creating thread locks `gate` before it publishes the creation and unlocks it when the
/// instance is stored, so a waiter blocks exactly until then, without polling.
// @unchecked Sendable: `owner` is read and written only under `Creation.waitGraph`; `gate` is a mutex.
@usableFromInline
final class Creation: PendingCreation, @unchecked Sendable {
    /// Guards every `owner` and every `ResolutionFrame.waitingOn`: the wait-for graph that lets a
    /// waiter see that it would wait for itself. Taken only when a creation starts to be waited
    /// on or ends, never on a cache hit.
    static let waitGraph = Mutex()

    private let gate = MutexStorage(recursive: false, sideWords: 2)
    private var owner: ResolutionFrame?
    /// `finishing` (set by the creator in `finish`) and `waited` (set by a waiter before it
    /// reads `owner`), a word each, for `finish`'s handshake: in the gate's allocation.
    private var words: UnsafeMutablePointer<UInt64> { gate.sideWords }

    /// Makes a creation owned by `frame`; the caller holds the lock of the table it goes into.
    @usableFromInline
    init(owner frame: ResolutionFrame, step: ResolutionStep, scope: ObjectIdentifier) {
        self.owner = frame
        super.init(step: step, scope: scope)
        gate.lock()
    }

    deinit {
        gate.destroy()
    }

    /// Ends the creation and wakes every waiter.
    ///
    /// Takes the process-wide `waitGraph` lock only if a waiter may read `owner`: the creator
    /// announces that it finishes and a waiter that it waits, each in a word of its own, then
    /// each reads the other's (at least one sees the other). A creator that sees no waiter
    /// clears `owner` alone, as no waiter reads it once it has seen the creator finishing.
    @usableFromInline
    func finish() {
        if depot_announce_and_check(words, 1, words + 1) != 0 {
            Self.waitGraph.lock()
            owner = nil
            Self.waitGraph.unlock()
        } else {
            owner = nil
        }
        gate.unlock()
    }

    /// Blocks until the creating thread has finished, or stops the process when waiting would
    /// close a circle of threads each waiting for another (a circular dependency split across
    /// threads, or a thread re-entering its own creation through another container).
    @usableFromInline
    func wait(by frame: ResolutionFrame) {
        if let circle = enterWait(by: frame) {
            // This thread's own creation, on its path since the step that closes the cycle was
            // pushed (pushes are checked only at some depths): a cycle of this thread.
            frame.failOnFirstCycle()
            frame.failCircularWait(continuingWith: circle)
        }
        gate.lock()
        gate.unlock()
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
        // A creation whose creator is finishing is not followed: its `owner` may be cleared
        // without the lock (see `finish`), and it will not wait for anything again.
        while let current = creation,
            depot_announce_and_check(current.words + 1, 1, current.words) == 0,
            let owner = current.owner
        {
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
