extension InstanceTable {
    /// Keeps `disposal` for the instance kept now for `key`; the one it replaces is disposed.
    mutating func replaceDisposal(for key: InstanceKey, with disposal: Disposal?) {
        guard disposal != nil || !disposals.isEmpty else { return }
        let replaced =
            disposal.map { disposals.updateValue($0, forKey: key) }
            ?? disposals.removeValue(forKey: key)
        if let replaced, replaced !== disposal, replaced.claim() {
            drop(replaced)
        }
    }

    /// Drops the disposal of `key`, if any, claimed: it runs after the lock.
    mutating func dropDisposal(forKey key: InstanceKey) {
        if !disposals.isEmpty, let disposal = disposals.removeValue(forKey: key), disposal.claim() {
            drop(disposal)
        }
    }

    /// Drops the disposals `predicate` selects, claimed: they run after the lock.
    mutating func dropDisposals(where predicate: (InstanceKey, Disposal) -> Bool) {
        guard !disposals.isEmpty else { return }
        for (key, disposal) in disposals where predicate(key, disposal) {
            disposals[key] = nil
            if disposal.claim() {
                drop(disposal)
            }
        }
    }

    /// Takes out, claimed, the disposals of `scope` (all for `nil`), for `shutdown()` to run.
    mutating func takeDisposals(of scope: Scope?) -> [Disposal] {
        guard !disposals.isEmpty else { return [] }
        var taken: [Disposal] = []
        for (key, disposal) in disposals
        where scope.map({ disposal.scope == ObjectIdentifier($0) }) ?? true {
            disposals[key] = nil
            if disposal.claim() {
                taken.append(disposal)
            }
        }
        return taken
    }
}
