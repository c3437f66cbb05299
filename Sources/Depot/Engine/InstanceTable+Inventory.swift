extension InstanceTable {
    /// What is kept now, by scope name: the keys of the kept instances. Only the instances
    /// `owner` selects (the container type, for process-wide tables); weakly held instances
    /// that are gone are left out. The caller describes the keys after the lock: a parameter's
    /// description is user code.
    func inventory(owner: ObjectIdentifier?) -> [String: [InstanceKey]] {
        var inventory: [String: [InstanceKey]] = [:]
        func add(_ key: InstanceKey, scope: Scope) {
            guard key.owner == owner else { return }
            inventory[scope.description, default: []].append(key)
        }
        for (key, cell) in cells {
            if let weak = cell as? WeakCell, weak.object == nil { continue }
            add(key, scope: cell.scope)
        }
        for (key, entry) in stored {
            add(key, scope: entry.scope)
        }
        return inventory
    }
}
