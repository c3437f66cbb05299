// Forgetting what an instance table keeps: resets, registrations, `pop()`.
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
        drop(cells.remove { predicate($0.key, ObjectIdentifier($0.value.scope)) })
        creations.cancel(where: predicate)
        stored = stored.filter { !predicate($0.key, ObjectIdentifier($0.value.scope)) }
        dropDisposals { key, disposal in predicate(key, disposal.scope) }
    }

    /// Forgets the instances of one factory and cancels its creations.
    mutating func removeInstances(of factory: FactoryKey, owner: ObjectIdentifier?) {
        let key = InstanceKey(factory: factory, owner: owner, parameter: nil)
        drop(cells.removeValue(forKey: key))
        creations.cancel(key)
        if !stored.isEmpty {
            stored[key] = nil
        }
        dropDisposal(forKey: key)
        if parameterised.contains(factory) {
            removeAll { instance, _ in instance.factory == factory && instance.owner == owner }
        }
    }

    /// The number of weak cells at which a table first sweeps the gone ones.
    static let firstSweep = 64

    /// Forgets the cells of weak scopes whose instances are gone: run when the weak cells have
    /// doubled since the last sweep, so a factory kept per parameter keeps at most about twice
    /// as many cells as live instances, at a constant cost per creation.
    mutating func sweepGoneCells() {
        drop(cells.remove { $0.value.scope.holdsWeakly && $0.value.isGone })
        weakCells = cells.count { $0.value.scope.holdsWeakly }
        nextSweep = max(Self.firstSweep, weakCells * 2)
    }

    /// Forgets every instance (emptying every custom storage) and cancels every creation.
    mutating func removeAll() {
        dropAllCellsAndCreations()
        parameterised.removeAll()
        removeStored()
    }

    /// Drops every cell and every creation in flight.
    mutating func dropAllCellsAndCreations() {
        drop(cells)
        cells.removeAll()
        creations.cancelAll()
        dropDisposals { _, _ in true }
    }

    mutating func removeStored() {
        stored.removeAll()
        for storage in storages.values {
            storage.removeAll()
        }
    }

    /// Whether no instance is kept.
    var isEmpty: Bool { cells.isEmpty && stored.isEmpty }

    /// The kept instances and their teardown: what `push()` saves (not custom storages).
    var snapshot: (cells: HashTable<InstanceKey, Cell>, disposals: [InstanceKey: Disposal]) {
        (cells, disposals.filter { cells[$0.key] != nil })
    }

    /// Puts back what `snapshot` saved, so nothing made since outlives `pop()`: creations in
    /// flight are cancelled, custom storages emptied, and what was disposed since stays gone.
    mutating func restore(
        _ snapshot: (cells: HashTable<InstanceKey, Cell>, disposals: [InstanceKey: Disposal])
    ) {
        let live = snapshot.disposals.filter { !$0.value.isClaimed }
        dropDisposals { key, disposal in live[key] !== disposal }
        disposals = [:]
        dropAllCellsAndCreations()
        cells = snapshot.cells
        for key in snapshot.disposals.keys where live[key] == nil {
            cells.removeValue(forKey: key)
        }
        disposals = live
        parameterised = Set(snapshot.cells.filter { $0.key.parameter != nil }.map(\.key.factory))
        removeStored()
    }
}
