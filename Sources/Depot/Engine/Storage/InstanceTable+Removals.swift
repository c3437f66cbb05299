// What an instance table forgets: on resets, registrations, `pop()` and sweeps of stale cells,
// and the teardown it hands over for `shutdown()`.
extension InstanceTable {
    /// Forgets the instances of `scope` and cancels their creations. A custom storage's
    /// `removeAll()` runs under the lock, by design (see ``ScopeStorage``).
    mutating func removeInstances(of scope: Scope) {
        let id = ObjectIdentifier(scope)
        removeAll { _, scope in scope == id }
        storages[id]?.removeAll()
    }

    /// Forgets the instances (and cancels the creations) that `predicate` selects by key and
    /// scope. Values in custom storages stop counting; the storages keep them until reset.
    mutating func removeAll(where predicate: (InstanceKey, ObjectIdentifier) -> Bool) {
        drop(slots.remove { predicate($0.key, $0.value.scope) })
        dropDisposals { key, disposal in predicate(key, disposal.scope) }
    }

    /// Forgets the instances of one factory and cancels its creations.
    mutating func removeInstances(of factory: FactoryKey, owner: ObjectIdentifier?) {
        let key = InstanceKey(factory: factory, owner: owner, parameter: nil)
        drop(slots.removeValue(forKey: key))
        dropDisposal(forKey: key)
        if parameterised.contains(factory) {
            removeAll { instance, _ in instance.factory == factory && instance.owner == owner }
        }
    }

    /// The number of cells that can go stale at which a table first sweeps them.
    static let firstSweep = 64

    /// Forgets the cells that can no longer be handed out, disposing their instances: a weak
    /// scope's whose instance is gone, and those older than their factory's time to live at
    /// `now`. Run when such cells have doubled since the last sweep, so a factory kept per
    /// parameter keeps at most about twice as many as are live, at a constant cost per creation.
    mutating func sweepStaleCells(now: Double) {
        let expiring = expiring
        let stale = Set(
            slots.filter { key, slot in
                guard slot.isGone != true else { return true }
                guard let cell = slot.cell, let timeToLive = expiring[key.ofFactory] else {
                    return false
                }
                return now - cell.createdAt >= timeToLive
            }.map(\.key))
        removeAll { key, _ in stale.contains(key) }
        staleable = slots.count { $0.value.isGone != nil || expiring[$0.key.ofFactory] != nil }
        nextSweep = max(Self.firstSweep, staleable * 2)
    }

    /// Forgets every instance (emptying every custom storage) and cancels every creation.
    mutating func removeAll() {
        drop(slots)
        slots.removeAll()
        dropDisposals { _, _ in true }
        parameterised.removeAll()
        storages.values.forEach { $0.removeAll() }
    }

    /// Whether no instance is kept.
    var isEmpty: Bool { slots.allSatisfy { $0.value.creation != nil } }

    /// What `push()` saves: the kept instances (not custom storages) and their teardown.
    typealias Snapshot = (slots: InstanceSlots, disposals: [InstanceKey: Disposal])

    var snapshot: Snapshot {
        (slots, disposals.filter { slots[$0.key]?.cell != nil })
    }

    /// Puts back what `snapshot` saved, so nothing made since outlives `pop()`: creations in
    /// flight are cancelled, custom storages emptied, and what was disposed since stays gone.
    mutating func restore(_ snapshot: Snapshot) {
        let live = snapshot.disposals.filter { !$0.value.isClaimed }
        dropDisposals { key, disposal in live[key] !== disposal }
        disposals = [:]
        removeAll()
        slots = snapshot.slots
        // Only kept instances come back, less those disposed since.
        _ = slots.remove {
            $0.value.cell == nil || (snapshot.disposals[$0.key] != nil && live[$0.key] == nil)
        }
        disposals = live
        parameterised = Set(slots.filter { $0.key.parameter != nil }.map(\.key.factory))
    }

    /// Drops the disposals `predicate` selects, claimed: they run after the lock.
    mutating func dropDisposals(where predicate: (InstanceKey, Disposal) -> Bool) {
        guard !disposals.isEmpty else { return }
        for (key, disposal) in disposals where predicate(key, disposal) {
            disposals[key] = nil
            if disposal.claim() { drop(disposal) }
        }
    }

    /// Takes out, claimed, the disposals of `scope` (all for `nil`), for `shutdown()` to run.
    mutating func takeDisposals(of scope: Scope?) -> [Disposal] {
        guard !disposals.isEmpty else { return [] }
        var taken: [Disposal] = []
        for (key, disposal) in disposals
        where scope.map({ disposal.scope == ObjectIdentifier($0) }) ?? true {
            disposals[key] = nil
            if disposal.claim() { taken.append(disposal) }
        }
        return taken
    }
}
