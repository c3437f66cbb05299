// Where a validation's async roots run: a task executor (SE-0417) of its own, whose one worker
// thread is replaced when a resolve on it parks (`Validation.stop`), so that parking never
// takes a thread from the cooperative pool, which may have only two.

/// Runs the jobs of a validation's async roots, one at a time, on a worker thread of its own.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
final class ValidationExecutor: TaskExecutor, Sendable {
    static let shared = ValidationExecutor()

    private let state = Locked(State())

    private struct State {
        var jobs: [UnownedJob] = []
        /// Whether a worker runs the jobs now (it ends when none are left).
        var hasWorker = false
        /// The frame of the worker's thread, which identifies it.
        var worker: ObjectIdentifier?
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let startsWorker = state.withLock { state in
            state.jobs.append(job)
            defer { state.hasWorker = true }
            return !state.hasWorker
        }
        if startsWorker { startWorker() }
    }

    private func startWorker() {
        ResolutionFrame.detachThread { [self] in
            let frame = ObjectIdentifier(ResolutionFrame.current)
            while let job = next(on: frame) {
                job.runSynchronously(on: asUnownedTaskExecutor())
            }
        }
    }

    /// The next job for the worker whose frame is `frame`, or `nil` when it is to end.
    private func next(on frame: ObjectIdentifier) -> UnownedJob? {
        state.withLock { state in
            guard !state.jobs.isEmpty else {
                (state.hasWorker, state.worker) = (false, nil)
                return nil
            }
            state.worker = frame
            return state.jobs.removeFirst()
        }
    }

    /// Hands the jobs to a new worker if the calling thread is the worker, about to park.
    func handOffIfWorker() {
        let frame = ObjectIdentifier(ResolutionFrame.current)
        let startsWorker = state.withLock { state -> Bool in
            guard state.worker == frame else { return false }
            state.worker = nil
            state.hasWorker = !state.jobs.isEmpty
            return state.hasWorker
        }
        if startsWorker { startWorker() }
    }
}
