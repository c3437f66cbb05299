import Dispatch

// How a validation waits for each root: until it finishes, or until a problem stops it and
// parks its thread.

extension Validation {
    /// How one root's resolve ended: the validator waits for it to finish or stop.
    final class Run: Sendable {
        private let state = Locked(State())
        /// Signalled once, when the run ends, for the one synchronous validator waiting.
        private let ending = DispatchSemaphore(value: 0)

        private struct State {
            var isEnded = false
            var waiter: CheckedContinuation<Void, Never>?
        }

        /// Ends the run; only the first call counts.
        func finish() {
            let (isFirst, waiter) = state.withLock { state in
                defer { (state.isEnded, state.waiter) = (true, nil) }
                return (!state.isEnded, state.waiter)
            }
            guard isFirst else { return }
            ending.signal()
            waiter?.resume()
        }

        /// Blocks the calling thread until the run ends.
        func wait() { ending.wait() }

        /// Suspends until the run ends.
        func ended() async {
            await withCheckedContinuation { continuation in
                let isEnded = state.withLock { state in
                    if !state.isEnded { state.waiter = continuation }
                    return state.isEnded
                }
                if isEnded { continuation.resume() }
            }
        }
    }

    /// Blocks the calling thread for good, after handing its jobs on if it is the worker of
    /// ``ValidationExecutor``.
    static func parkCurrentThread() -> Never {
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
            ValidationExecutor.shared.handOffIfWorker()
        }
        let never = DispatchSemaphore(value: 0)
        while true { never.wait() }
    }
}
