/// Something that keeps scoped instances behind its own lock.
@usableFromInline
protocol InstanceOwner: AnyObject {
    /// Runs `body` on the table under the owner's lock. Not generic, so that the lock is
    /// specialised: a result leaves through a variable that `body` captures.
    func withInstances(_ body: (inout InstanceTable) -> Void)
    /// Notes this owner in the holders of `scope`, so that `scope.reset()` reaches it.
    func noteHolding(_ scope: Scope)
}

/// What ``InstanceOwner/find(_:plan:version:step:manager:making:)`` found.
enum FoundInstance {
    /// The cell kept for the key and, for a weak scope, its instance, loaded from it.
    case kept(InstanceTable.Cell, loaded: AnyObject?)
    /// The instance a custom scope's storage gave back.
    case stored(Any)
    /// Nothing may be kept: the registration changed since the plan was made, so what the
    /// caller makes is its alone.
    case missing
    /// Another resolve's creation of the instance: wait for it (a thread then looks again).
    case waitFor(Creation)
    /// The creation the caller records and carries out, then hands what it made to
    /// ``InstanceOwner/keep(_:madeBy:result:key:scope:timeToLive:manager:)``.
    case create(Creation)

    /// A lookup's hit of `cell`: the cell and, held weakly (`isWeak`), its instance loaded from
    /// it; `nil` if that instance went between the lookup and here, so look again.
    init?(hit cell: InstanceTable.Cell, isWeak: Bool) {
        guard isWeak else {
            self = .kept(cell, loaded: nil)
            return
        }
        guard let object = cell.weakObject else { return nil }
        self = .kept(cell, loaded: object)
    }
}

extension InstanceOwner {
    /// The instance kept for `key` in `plan`'s scope, the creation of it that another resolve
    /// carries out, or the one the caller carries out: exactly once however many threads and
    /// tasks ask. The caller records the creation `making` makes if none is in flight; it
    /// waits for another's creation as it waits, a thread by blocking and a task by suspending.
    /// Sync and async resolves both start here. Not generic, so compiled once: the caller,
    /// which knows the factory's types, makes the instance. `plan` was made from the
    /// registrations at `version`.
    func find(
        _ key: InstanceKey, plan: ContainerManager.Plan, version: UInt64,
        step: @autoclosure () -> ResolutionStep, manager: ContainerManager,
        making: () -> Creation
    ) -> FoundInstance {
        while true {
            // Only a factory with a `timeToLive` reads the clock (an instance kept without one
            // counts as old).
            let now = plan.timeToLive == nil ? 0 : manager.clock.now()
            let found = lookUp(
                key, plan: plan, version: version, now: now, step: step(), manager: manager,
                making: making)
            switch consume found {
            case .hit(let cell):
                let kept = FoundInstance(hit: cell, isWeak: plan.scope.holdsWeakly)
                // A weakly held instance went since the lookup: look again.
                guard let kept else { continue }
                return kept
            case .stored(let stored): return .stored(stored)
            case .missing: return .missing
            case .waitFor(let creation): return .waitFor(creation)
            case .create(let creation): return .create(creation)
            }
        }
    }

    /// What is kept for `key` in `plan`'s scope at `now` (read before the lock: a clock is user
    /// code); if nothing live is, the creation `making` makes, recorded for the caller to carry
    /// out (`.create`). `.missing` only if this factory's registration changed since `version`,
    /// the plan's: then what the plan makes is the caller's alone, so a replaced closure's value
    /// is never kept.
    @inline(__always)
    private func lookUp(
        _ key: InstanceKey, plan: ContainerManager.Plan, version: UInt64,
        now: Double, step: @autoclosure () -> ResolutionStep,
        manager: ContainerManager, making: () -> Creation
    ) -> InstanceTable.Lookup {
        var version = version
        while true {
            var found = InstanceTable.Lookup.missing
            var isStale = false
            // A custom scope's storage runs under this lock, by design (see `ScopeStorage`).
            withInstances { table in
                found = table.lookup(
                    key, in: plan.scope, timeToLive: plan.timeToLive, now: now, step: step())
                guard case .missing = found else { return }
                // A creation starts only while the plan's registrations are current.
                isStale = !manager.isCurrent(version)
                guard !isStale else { return }
                let creation = making()
                table.start(creation, for: key)
                found = .create(creation)
            }
            // The registrations changed after the plan was made. If this factory's did not,
            // the plan stands at their new version.
            guard isStale,
                let current = manager.version(
                    ifStill: plan.registration, registeredFor: key.factory)
            else { return consume found }
            version = current
        }
    }

    /// Keeps what `creation` made, unless a reset or a registration cancelled it, and ends the
    /// creation with `result`, waking its waiters.
    func keep(
        _ made: InstanceTable.Made, madeBy creation: Creation, result: Any = (),
        key: InstanceKey, scope: Scope, timeToLive: Double?, manager: ContainerManager
    ) {
        var kept = InstanceTable.Kept(isKept: false, hadWaiters: false, isFirstOfScope: false)
        withInstances { table in
            kept = table.finish(
                creation, key: key, made: made, scope: scope, timeToLive: timeToLive)
        }
        if kept.isFirstOfScope { noteHolding(scope) }
        if kept.hadWaiters { creation.finish(.success(result)) }
        // A weakly kept instance may go, and another take its address: only strong ones count.
        if manager.isValidationCopy, kept.isKept, scope.keepsStrongly, let object = made.object {
            Validation.noteKept(object, by: creation.step, in: scope)
        }
        guard !kept.isKept else { return }
        // Not kept, so not disposed by Depot either.
        _ = made.disposal?.claim()
        // A value type in a weak scope: it has no identity to hold weakly, so no cell.
        if scope.holdsWeakly, !made.isNone, made.cell == nil {
            manager.warnOnce(
                about: key.factory,
                "Depot: \(creation.step) is a value type in the \(scope) scope, which holds "
                    + "instances weakly; it behaves as unique. Use .cached to keep one value.")
        }
    }
}

extension SingletonRealm: InstanceOwner {
    @usableFromInline
    func withInstances(_ body: (inout InstanceTable) -> Void) {
        instances.withLock(body)
    }

    /// The cell kept for `key` in `scope`, if any: a hit's lookup.
    @inline(__always)
    func cell(for key: InstanceKey, in scope: Scope) -> InstanceTable.Cell? {
        instances.reading { $0.cell(for: key, in: scope) }
    }

    /// Never called: a realm keeps only process-wide scopes, which reset through the realm.
    @usableFromInline
    func noteHolding(_ scope: Scope) {}
}

/// Where process-wide scopes keep their instances: one for the process, and one for the code in
/// each ``Scope/withIsolatedSingletons(_:isolation:)`` (and DepotTesting's `.container` trait).
/// A container takes the realm current when it is made, so a resolve reads no task-local.
@usableFromInline
final class SingletonRealm: Sendable {
    static let process = SingletonRealm()

    /// The realm of ``Scope/singleton`` now: the process's, or a clone's.
    static var current: SingletonRealm {
        isolated ?? process
    }

    /// The isolated realm of the clone of ``Scope/singleton`` current now, if any.
    static var isolated: SingletonRealm? {
        Scope.singleton.isolatedRealm
    }

    let instances = Locked(InstanceTable())

    func removeInstances(of scope: Scope) {
        // The dropped cells are released after the lock; a custom storage's removeAll() runs
        // under it, by design.
        instances.withLock { $0.removeInstances(of: scope) }
    }
}

extension Scope {
    /// Runs `operation` with empty process-wide scopes of its own: containers created inside it
    /// keep their singletons apart from everyone else's, and `Scope.singleton.reset()` inside it
    /// resets only those.
    public static func withIsolatedSingletons<Result>(
        _ operation: () async throws -> Result,
        isolation: isolated (any Actor)? = #isolation
    ) async rethrows -> Result {
        try await Scope.$singleton.withValue(Scope.singleton.clone(), operation: operation)
    }

    /// Runs `operation` with empty process-wide scopes of its own (the synchronous form).
    public static func withIsolatedSingletons<Result>(_ operation: () throws -> Result) rethrows
        -> Result
    {
        try Scope.$singleton.withValue(Scope.singleton.clone(), operation: operation)
    }
}
