// Where a validation's async roots run: a task executor (SE-0417) of its own, whose one worker
// thread is replaced when a resolve on it parks (`Validation.stop`), so that parking never
// takes a thread from the cooperative pool, which may have only two.

/// Runs the jobs of a validation's async roots, one at a time, on a worker thread of its own.
// @unchecked Sendable: `jobs`, `hasWorker` and `worker` are used only under `lock`.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
final class ValidationExecutor: TaskExecutor, @unchecked Sendable {
    static let shared = ValidationExecutor()

    private let lock = Locked(())
    private var jobs: [UnownedJob] = []
    /// Whether a worker runs the jobs now (it ends when none are left).
    private var hasWorker = false
    /// The frame of the worker's thread, which identifies it.
    private var worker: ObjectIdentifier?

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let startsWorker = lock.withLock { _ in
            jobs.append(job)
            defer { hasWorker = true }
            return !hasWorker
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
        lock.withLock { _ in
            guard !jobs.isEmpty else {
                (hasWorker, worker) = (false, nil)
                return nil
            }
            worker = frame
            return jobs.removeFirst()
        }
    }

    /// Hands the jobs to a new worker if the calling thread is the worker, about to park.
    func handOffIfWorker() {
        let frame = ObjectIdentifier(ResolutionFrame.current)
        let startsWorker = lock.withLock { _ -> Bool in
            guard worker == frame else { return false }
            worker = nil
            hasWorker = !jobs.isEmpty
            return hasWorker
        }
        if startsWorker { startWorker() }
    }
}
