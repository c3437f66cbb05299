/// Something that keeps scoped instances behind its own lock.
@usableFromInline
protocol InstanceOwner: AnyObject {
    /// Runs `body` on the table under the owner's lock. Not generic, so that the lock is
    /// specialised: a result leaves through a variable that `body` captures.
    func withInstances(_ body: (inout InstanceTable) -> Void)
    /// Blocks until `isDone` is true (see `Locked.wait(on:until:)`).
    func wait(on condition: Condition, until isDone: () -> Bool)
    /// Notes this owner in the holders of `scope`, so that `scope.reset()` reaches it.
    func noteHolding(_ scope: Scope)
}

extension InstanceOwner {
    /// Keeps `value`, made by `creation`, and ends the creation, under the lock (see
    /// `InstanceTable.finish`); returns whether the value was kept, and whether a thread waited
    /// for the creation.
    @inlinable
    func keep<Value>(
        _ value: Value, madeBy creation: InstanceTable.Slot, key: InstanceKey,
        scope: Scope, createdAt: Double, timeToLive: Double?, disposal: Disposal?
    ) -> (isKept: Bool, hadWaiters: Bool) {
        var kept = InstanceTable.Kept(isKept: false, hadWaiters: false, isFirstOfScope: false)
        withInstances { table in
            kept = table.finish(
                creation, key: key, value: value, scope: scope, createdAt: createdAt,
                timeToLive: timeToLive, disposal: disposal)
        }
        if kept.isFirstOfScope { noteHolding(scope) }
        return (kept.isKept, kept.hadWaiters)
    }
}

extension ContainerManager: InstanceOwner {
    @usableFromInline
    func withInstances(_ body: (inout InstanceTable) -> Void) {
        state.withLock { body(&$0.instances) }
    }

    /// The cell kept for `key` in `scope`, if any: a hit's lookup.
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
    func withInstances(_ body: (inout InstanceTable) -> Void) {
        instances.withLock(body)
    }

    /// The cell kept for `key` in `scope`, if any: a hit's lookup.
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
