// What an instance table keeps in the storages of custom scopes.
extension InstanceTable {
    /// The value a custom scope's storage keeps for `key`, if Depot gave it and it is young.
    mutating func storedValue(
        for key: InstanceKey, in scope: Scope, custom: Scope.CustomStorage, timeToLive: Double?,
        now: Double, step: ResolutionStep
    ) -> Any? {
        guard let entry = stored[key], entry.scope === scope, isCurrent(scope) else { return nil }
        if let timeToLive, now - entry.createdAt >= timeToLive { return nil }
        guard let value = storage(of: scope, custom).value(for: ScopeKey(key, step: step)) else {
            return nil
        }
        guard scope.holdsWeakly else { return value }
        guard let box = value as? WeakBox else {
            fatalError(
                "Depot: the storage of scope \(scope) returned a \(Swift.type(of: value)) for "
                    + "\(step), not the value Depot gave it. A ScopeStorage must return what "
                    + "setValue(_:for:) received for that key, or nil.")
        }
        return box.object
    }

    mutating func storage(of scope: Scope, _ custom: Scope.CustomStorage)
        -> any ScopeStorage
    {
        if let storage = storages[ObjectIdentifier(scope)] { return storage }
        let storage = custom.makeStorage()
        storages[ObjectIdentifier(scope)] = storage
        return storage
    }
}
