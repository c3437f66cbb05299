// How a validation waits for each root: until it finishes, or until a problem stops it and
// parks its thread.

extension Validation {
    /// How one root's resolve ended: the validator waits for it to finish or stop.
    // @unchecked Sendable: `isEnded` and `waiter` are used only under `lock`.
    final class Run: @unchecked Sendable {
        private let lock = Locked(())
        private let condition = Condition()
        private var isEnded = false
        private var waiter: CheckedContinuation<Void, Never>?

        /// Ends the run; only the first call counts.
        func finish() {
            let waiter = lock.withLock { _ -> CheckedContinuation<Void, Never>? in
                guard !isEnded else { return nil }
                isEnded = true
                condition.broadcast()
                defer { self.waiter = nil }
                return self.waiter
            }
            waiter?.resume()
        }

        /// Blocks the calling thread until the run ends.
        func wait() {
            lock.wait(on: condition) { isEnded }
        }

        /// Suspends until the run ends.
        func ended() async {
            await withCheckedContinuation { continuation in
                let isEnded = lock.withLock { _ in
                    if !self.isEnded { waiter = continuation }
                    return self.isEnded
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
        let parked = Locked(())
        parked.wait(on: Condition()) { false }
        preconditionFailure("Internal inconsistency: a parked validation thread woke")
    }
}
