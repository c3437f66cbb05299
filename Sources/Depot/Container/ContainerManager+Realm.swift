// Where a container's singletons live.
extension ContainerManager {
    /// Where this container's singletons live: an isolated realm current when the manager was
    /// made, or else the realm current when it first needed one.
    @usableFromInline
    var realm: SingletonRealm {
        if let realm = state.withLock({ $0.realm }) { return realm }
        // Read before the lock: the current realm is a task-local.
        let current = SingletonRealm.current
        return state.withLock { state in
            if let realm = state.realm { return realm }
            state.realm = current
            return current
        }
    }
}
