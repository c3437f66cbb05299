import Atomics

// Where a container's singletons live.
extension ContainerManager {
    /// Where this container's singletons live: an isolated realm current when the manager was
    /// made, or else the realm current when it first needed one; a lifetime scope or child
    /// takes its container's (see `becomeLifetimeScope(of:)`). Bound on first use, then read
    /// without a lock.
    @usableFromInline
    var realm: SingletonRealm {
        if let realm = boundRealm.load() { return realm }
        // Read before binding: the current realm is a task-local.
        let chosen = state.withLock { $0.isolatedRealm } ?? SingletonRealm.current
        return boundRealm.storeIfNilThenLoad(chosen)
    }

    /// The cell the singleton realm keeps for the plain `.singleton` factory `key` of a
    /// container of `containerType`, if any: what `prepare` would find for it in a plain
    /// container (see ``isPlain``), without taking this manager's lock.
    @usableFromInline
    func plainSingletonCell(for key: FactoryKey, containerType: ObjectIdentifier)
        -> InstanceTable.Cell?
    {
        let key = InstanceKey(factory: key, owner: containerType, parameter: nil)
        return realm.cell(for: key, in: Scope.Singleton.process)
    }
}
