// Forgetting what an instance table keeps (resets, registrations, `pop()`), and reading what it
// keeps.
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

    /// The number of weak cells at which a table first sweeps the gone ones.
    static let firstSweep = 64

    /// Forgets the cells of weak scopes whose instances are gone: run when the weak cells have
    /// doubled since the last sweep, so a factory kept per parameter keeps at most about twice
    /// as many cells as live instances, at a constant cost per creation.
    mutating func sweepGoneCells() {
        drop(slots.remove { $0.value.isGone == true })
        weakCells = slots.count { $0.value.isGone != nil }
        nextSweep = max(Self.firstSweep, weakCells * 2)
    }

    /// Forgets every instance (emptying every custom storage) and cancels every creation.
    mutating func removeAll() {
        drop(slots)
        slots.removeAll()
        dropDisposals { _, _ in true }
        parameterised.removeAll()
        for storage in storages.values {
            storage.removeAll()
        }
    }

    /// Whether no instance is kept.
    var isEmpty: Bool { slots.allSatisfy { $0.value.creation != nil } }

    /// What `push()` saves: the kept instances (not custom storages) and their teardown.
    typealias Snapshot = (slots: HashTable<InstanceKey, Slot>, disposals: [InstanceKey: Disposal])

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

    /// The keys of the live instances `owner` keeps, by scope name; the caller describes them
    /// after the lock (a parameter's description is user code).
    func inventory(owner: ObjectIdentifier?) -> [String: [InstanceKey]] {
        var inventory: [String: [InstanceKey]] = [:]
        for (key, slot) in slots where key.owner == owner {
            switch slot {
            case .ready(let cell), .stored(let cell):
                guard isCurrent(cell.scope), slot.isGone != true else { continue }
                inventory[cell.scope.description, default: []].append(key)
            case .creating, .creatingAsync:
                continue
            }
        }
        return inventory
    }
}

extension InstanceTable.Slot {
    /// The scope whose instance the slot is, or is being made for.
    var scope: ObjectIdentifier {
        switch self {
        case .creating, .creatingAsync: creation!.scope
        case .ready(let cell), .stored(let cell): ObjectIdentifier(cell.scope)
        }
    }

    /// The kept instance's cell, if the slot is ready.
    var cell: InstanceTable.Cell? {
        guard case .ready(let cell) = self else { return nil }
        return cell
    }

    /// Whether the instance of a weak scope's cell is gone; `nil` if the slot is not one.
    var isGone: Bool? {
        guard let cell, cell.scope.holdsWeakly else { return nil }
        return cell.isGone
    }
}
