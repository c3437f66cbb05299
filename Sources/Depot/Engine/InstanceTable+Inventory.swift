extension InstanceTable {
    /// The keys of the live instances `owner` keeps, by scope name; the caller describes them
    /// after the lock (a parameter's description is user code).
    func inventory(owner: ObjectIdentifier?) -> [String: [InstanceKey]] {
        var inventory: [String: [InstanceKey]] = [:]
        func add(_ key: InstanceKey, scope: Scope) {
            guard key.owner == owner else { return }
            inventory[scope.description, default: []].append(key)
        }
        for (key, cell) in cells {
            if let weak = cell as? WeakCell, weak.object == nil { continue }
            guard isCurrent(cell.scope) else { continue }
            add(key, scope: cell.scope)
        }
        for (key, entry) in stored where isCurrent(entry.scope) {
            add(key, scope: entry.scope)
        }
        return inventory
    }
}
