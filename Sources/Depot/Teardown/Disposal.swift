import Atomics

/// A factory's `onDispose` closure, erased to take the instance as `Any`.
@usableFromInline
typealias Disposer = @Sendable (Any) async throws -> Void

/// The teardown of one kept instance, run exactly once, by whoever first claims it: `shutdown()`,
/// the task a reset starts for what it dropped, or else this object's deinit.
// @unchecked Sendable: `value` is of a Sendable type (`onDispose` requires `T: Sendable`),
// erased to `Any`; `isClaimedNow` is an atomic; everything else is immutable (`step` too: it
// is only described, and its description leaves out the parameter).
@usableFromInline
final class Disposal: @unchecked Sendable {
    let value: Any
    let disposer: Disposer
    let scope: ObjectIdentifier
    /// When the instance was kept: disposals run newest first.
    let order: UInt64
    /// The factory, described only for an error's message.
    let step: ResolutionStep
    /// The manager whose logger reports an error of a disposal that nobody awaits.
    weak var manager: ContainerManager?
    /// Whether the one who runs it claimed the disposal.
    private let isClaimedNow = ManagedAtomic(false)

    init(
        value: Any, disposer: @escaping Disposer, scope: ObjectIdentifier, step: ResolutionStep,
        manager: ContainerManager?
    ) {
        (self.value, self.disposer, self.scope, self.step, self.manager) = (
            value, disposer, scope, step, manager
        )
        order = Self.nextOrder.loadThenWrappingIncrement(ordering: .relaxed)
    }

    deinit {
        // Nobody claimed it: the instance is let go of without a reset or shutdown having seen
        // it (its container went away, or its creation was cancelled). Disposed all the same.
        if claim() {
            let (value, disposer, step, manager) = (value, disposer, Unchecked(step), manager)
            Task { await Self.dispose(value, disposer, step.value, reportingTo: manager) }
        }
    }

    /// Claims the disposal for the caller, who must then run it: `true` once.
    @usableFromInline
    func claim() -> Bool {
        !isClaimedNow.exchange(true, ordering: .acquiringAndReleasing)
    }

    /// Whether someone claimed the disposal (it has run or is about to).
    var isClaimed: Bool { isClaimedNow.load(ordering: .acquiring) }

    /// Runs the claimed `disposals`, newest first, all of them whatever throws; returns the
    /// errors, each also logged through the logger of the manager that made the instance.
    static func run(_ disposals: [Disposal]) async -> [DisposalError] {
        var errors: [DisposalError] = []
        for disposal in disposals.sorted(by: { $0.order > $1.order }) {
            if let error = await dispose(
                disposal.value, disposal.disposer, disposal.step, reportingTo: disposal.manager)
            {
                errors.append(error)
            }
        }
        return errors
    }

    /// Runs `disposer` with `value`; what it throws is logged and returned.
    private static func dispose(
        _ value: Any, _ disposer: @escaping Disposer, _ step: ResolutionStep,
        reportingTo manager: ContainerManager?
    ) async -> DisposalError? {
        do {
            try await disposer(value)
            return nil
        } catch {
            let failure = DisposalError(factory: step.description, error: error)
            let message = "Depot: " + failure.description
            if let manager { manager.logger(message) } else { print(message) }
            return failure
        }
    }

    /// Disposes, in a new task, the claimed disposals among what a lock section dropped.
    /// The source of disposal order, shared by every table: reverse creation order across
    /// containers and singletons alike. An atomic, so that a request takes no process-wide lock.
    private static let nextOrder = ManagedAtomic<UInt64>(0)

    static func disposeDropped(_ dropped: [Any]) {
        // The type first: casting a dictionary to a class would bridge it to Foundation.
        let disposals = dropped.compactMap {
            Swift.type(of: $0) is Disposal.Type ? $0 as? Disposal : nil
        }
        guard !disposals.isEmpty else { return }
        Task { _ = await run(disposals) }
    }
}

/// An error an `onDispose` closure threw, with the factory whose instance it was disposing.
public struct DisposalError: Error, CustomStringConvertible {
    /// The factory, as `Container.database<Database>`.
    public let factory: String
    /// What the closure threw.
    public let error: any Error

    /// `onDispose of Container.database<Database> threw: ...`.
    public var description: String { "onDispose of \(factory) threw: \(error)" }
}
