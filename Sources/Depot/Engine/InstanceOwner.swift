/// Something that keeps scoped instances behind its own lock.
@usableFromInline
protocol InstanceOwner: AnyObject {
    func withInstances<Result>(_ body: (inout InstanceTable) -> Result) -> Result
    /// ``withInstances(_:)`` for a lookup, not generic so that its lock is specialised.
    func withInstances(lookingUp body: (inout InstanceTable) -> InstanceTable.Lookup)
        -> InstanceTable.Lookup
    /// The cell kept for `key` in `scope`, if any: a hit's lookup.
    func cell(for key: InstanceKey, in scope: Scope) -> InstanceTable.Cell?
    /// ``withInstances(_:)`` for keeping a created instance, not generic either.
    func withInstances(keeping body: (inout InstanceTable) -> InstanceTable.Kept)
        -> InstanceTable.Kept
    /// Blocks until `isDone` is true (see `Locked.wait(on:until:)`).
    func wait(on condition: Condition, until isDone: () -> Bool)
    /// Notes this owner in the holders of `scope`, so that `scope.reset()` reaches it.
    func noteHolding(_ scope: Scope)
}

extension InstanceOwner {
    /// Keeps `value`, made by `creation`, and marks the creation finished, under the lock;
    /// returns whether the value was kept, and whether a thread waited for the creation.
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
        if kept.isFirstOfScope { noteHolding(scope) }
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
