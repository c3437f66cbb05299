/// Something that keeps scoped instances behind its own lock.
@usableFromInline
protocol InstanceOwner: AnyObject {
    func withInstances<Result>(_ body: (inout InstanceTable) -> Result) -> Result
    /// ``withInstances(_:)`` for a lookup: not generic, so that its lock's code is specialised
    /// for the owner's state (the generic one reaches the state's dropped values through its
    /// witness table, on every creation).
    func withInstances(lookingUp body: (inout InstanceTable) -> InstanceTable.Lookup)
        -> InstanceTable.Lookup
    /// The cell kept for `key` in `scope`, if any (see ``InstanceTable/cell(for:in:timeToLive:now:)``):
    /// the lookup of a hit, not generic for the same reason.
    func cell(for key: InstanceKey, in scope: Scope) -> InstanceTable.Cell?
    /// ``withInstances(_:)`` for keeping a created instance, not generic for the same reason.
    func withInstances(keeping body: (inout InstanceTable) -> InstanceTable.Kept)
        -> InstanceTable.Kept
    /// Blocks until `isDone` is true, under this owner's lock and its `condition` (see
    /// `Locked.wait(on:until:)`).
    func wait(on condition: Condition, until isDone: () -> Bool)
    /// Notes this owner in the holders of `scope`, so that `scope.reset()`
    /// reaches the instance it keeps: for the first one of a per-container scope.
    func noteHolding(_ scope: Scope)
}

extension InstanceOwner {
    /// Keeps `value`, made by `creation` (see ``InstanceTable/finish(_:key:value:scope:createdAt:disposal:)``),
    /// and marks the creation finished (``PendingCreation/markFinished()``), under the lock;
    /// notes this owner in the scope's holders if it is its first instance of a per-container
    /// scope. Returns whether the value was kept, and whether a thread waited for the
    /// creation. Shared by the synchronous and async creations.
    @inlinable
    func keep<Value>(
        _ value: Value, madeBy creation: PendingCreation, key: InstanceKey,
        scope: Scope, createdAt: Double, disposal: Disposal?
    ) -> (isKept: Bool, hadWaiters: Bool) {
        let kept = withInstances(keeping: { table in
            let isKept = table.finish(
                creation, key: key, value: value, scope: scope, createdAt: createdAt,
                disposal: disposal)
            return InstanceTable.Kept(
                isKept: isKept, hadWaiters: creation.markFinished(),
                isFirstOfScope: isKept && scope.placement == .container
                    && table.needsTracking(in: scope))
        })
        if kept.isFirstOfScope {
            noteHolding(scope)
        }
        return (kept.isKept, kept.hadWaiters)
    }
}

extension ContainerManager: InstanceOwner {
    @usableFromInline
    func withInstances<Result>(_ body: (inout InstanceTable) -> Result) -> Result {
        state.withLock { body(&$0.instances) }
    }

    @usableFromInline
    func withInstances(lookingUp body: (inout InstanceTable) -> InstanceTable.Lookup)
        -> InstanceTable.Lookup
    {
        state.withLock { body(&$0.instances) }
    }

    @usableFromInline
    func withInstances(keeping body: (inout InstanceTable) -> InstanceTable.Kept)
        -> InstanceTable.Kept
    {
        state.withLock { body(&$0.instances) }
    }

    @usableFromInline
    func cell(for key: InstanceKey, in scope: Scope) -> InstanceTable.Cell? {
        state.withLock { $0.instances.cell(for: key, in: scope) }
    }

    @usableFromInline
    func noteHolding(_ scope: Scope) {
        scope.track(self)
    }

    @usableFromInline
    func wait(on condition: Condition, until isDone: () -> Bool) {
        state.wait(on: condition, until: isDone)
    }
}

extension SingletonRealm: InstanceOwner {
    @usableFromInline
    func withInstances<Result>(_ body: (inout InstanceTable) -> Result) -> Result {
        instances.withLock(body)
    }

    @usableFromInline
    func withInstances(lookingUp body: (inout InstanceTable) -> InstanceTable.Lookup)
        -> InstanceTable.Lookup
    {
        instances.withLock(body)
    }

    @usableFromInline
    func withInstances(keeping body: (inout InstanceTable) -> InstanceTable.Kept)
        -> InstanceTable.Kept
    {
        instances.withLock(body)
    }

    @usableFromInline
    func cell(for key: InstanceKey, in scope: Scope) -> InstanceTable.Cell? {
        instances.withLock { $0.cell(for: key, in: scope) }
    }

    /// Never called: a realm keeps only process-wide scopes, which reset through the realm.
    @usableFromInline
    func noteHolding(_ scope: Scope) {}

    @usableFromInline
    func wait(on condition: Condition, until isDone: () -> Bool) {
        instances.wait(on: condition, until: isDone)
    }
}
