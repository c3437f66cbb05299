import Dispatch

// Where a validating resolve goes when its thread's stack runs short: on, in a task on a
// thread of its own with a stack sized for the rest of the depth limit, while the caller's
// thread waits. So the depth limit, not the caller's stack, decides what is too deep (a
// validating step takes more stack than a plain resolve's). The task takes the caller's
// task-locals. What runs there runs on no actor: a synchronous factory declared on one, below
// the move, is an isolation breach, never run off its actor.

extension Validation {
    /// The actor-free place a moved resolve runs on, as a node's isolation: no actor's code
    /// runs on its thread.
    actor LargerStack {
        /// How close to its end a thread's stack may come before a validating resolve moves: a
        /// step's room, above the engine's own stop (`ResolutionFrame.stackLimit`).
        static let margin: UInt = 256 << 10

        /// Whether the calling thread's stack is too short for another validating step.
        static var isNeeded: Bool {
            let frame = ResolutionFrame.current
            return frame.stackLimit != 0
                && ResolutionFrame.stackPosition() < frame.stackLimit + margin
        }

        /// The stack of a moved resolve with `depth` steps above it: room for the rest of the
        /// depth limit, at 32 KiB a step, 16 MiB at least and 1 GiB at most (reserved, and
        /// used only as it grows).
        static func stackSize(below depth: Int) -> Int {
            let steps = max(ContainerManager.maximumResolutionDepth - depth, 0)
            return min(max(steps * (32 << 10), 16 << 20), 1 << 30)
        }
    }

    /// Runs `body`, the resolve of `node`'s step, on a thread with a larger stack, blocking
    /// the calling thread until it returns; where task executors are not available, here.
    func onLargerStack<T>(_ node: Node, _ body: @escaping () -> T) -> T {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else {
            return body()
        }
        let executor = LargerStackExecutor(stackSize: LargerStack.stackSize(below: node.depth))
        // Used by the one task below while this thread waits for it: as a resolve on one
        // thread would use them.
        let work = Unchecked(body)
        let result = Locked<Unchecked<T>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task(executorPreference: executor) {
            let value = work.value()
            result.withLock { $0 = Unchecked(value) }
            done.signal()
        }
        done.wait()
        return result.withLock { $0 }!.value
    }
}

/// Runs a moved resolve's task on a thread of its own, with a stack of `stackSize` bytes; the
/// thread ends with the job. A synchronous resolve is one job.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
final class LargerStackExecutor: TaskExecutor, Sendable {
    let stackSize: Int

    init(stackSize: Int) {
        self.stackSize = stackSize
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        ResolutionFrame.startThread(stackSize: stackSize) {
            job.runSynchronously(on: self.asUnownedTaskExecutor())
        }
    }
}
