/// The slots of an ``InstanceTable``, by key. A key with a parameter of a factory that keeps
/// one instance per value is looked for in that factory's ``ParameterRun``, a `Dictionary` of
/// the parameter's own type; every other key in one ``HashTable``.
struct InstanceSlots: Sequence {
    typealias Slot = InstanceTable.Slot
    typealias Element = (key: InstanceKey, value: Slot)

    private var plain = HashTable<InstanceKey, Slot>()
    /// Each factory's run, by its key without a parameter.
    private var runs = HashTable<InstanceKey, ParameterRun>()

    /// The slot kept for `key`; setting `nil` removes it.
    subscript(key: InstanceKey) -> Slot? {
        @inline(__always)
        get {
            guard Self.isInRun(key) else { return plain[key] }
            return findInRun(key)
        }
        @inline(__always)
        set {
            guard Self.isInRun(key) else {
                plain[key] = newValue
                return
            }
            change(key) { $0 = newValue }
        }
    }

    /// Keeps `slot` for `key`; returns the slot it replaces, if any.
    @inline(__always)
    @discardableResult
    mutating func updateValue(_ slot: Slot, forKey key: InstanceKey) -> Slot? {
        guard Self.isInRun(key) else { return plain.updateValue(slot, forKey: key) }
        var replaced: Slot?
        change(key) { kept in
            replaced = kept
            kept = slot
        }
        return replaced
    }

    /// Keeps `slot` for `key` in place of the slot there, if `isReplaced` accepts that one;
    /// returns whether it did.
    @inline(__always)
    mutating func replaceValue(
        forKey key: InstanceKey, with slot: Slot, if isReplaced: (Slot) -> Bool
    ) -> Bool {
        guard Self.isInRun(key) else {
            return plain.replaceValue(forKey: key, with: slot, if: isReplaced)
        }
        var isDone = false
        change(key) { kept in
            guard let current = kept, isReplaced(current) else { return }
            kept = slot
            isDone = true
        }
        return isDone
    }

    /// Removes the slot kept for `key`; returns it, if any.
    @inline(__always)
    @discardableResult
    mutating func removeValue(forKey key: InstanceKey) -> Slot? {
        guard Self.isInRun(key) else { return plain.removeValue(forKey: key) }
        var removed: Slot?
        change(key) { kept in
            removed = kept
            kept = nil
        }
        return removed
    }

    /// Removes the entries `isRemoved` selects; returns their slots.
    mutating func remove(where isRemoved: (Element) -> Bool) -> [Slot] {
        let inRuns = runEntries.filter(isRemoved)
        return plain.remove(where: isRemoved) + inRuns.compactMap { removeValue(forKey: $0.key) }
    }

    /// Removes every entry.
    mutating func removeAll() {
        plain.removeAll()
        runs.removeAll()
    }

    /// How many slots the table has room for.
    var capacity: Int {
        runs.reduce(plain.capacity) { $0 + $1.value.capacity }
    }

    func makeIterator() -> IndexingIterator<[Element]> {
        (Array(plain) + runEntries).makeIterator()
    }

    /// The entries of every run.
    private var runEntries: [Element] {
        runs.flatMap { factory, run in
            run.entries.map { entry in
                let key = InstanceKey(
                    factory: factory.factory, owner: factory.owner, parameter: entry.parameter)
                return (key, entry.slot)
            }
        }
    }

    /// Whether `key`'s slot is in a run.
    @inline(__always)
    private static func isInRun(_ key: InstanceKey) -> Bool {
        guard let parameter = key.parameter else { return false }
        return parameter.run != nil
    }

    /// The slot kept for `key`, whose parameter has a run.
    @inline(never)
    private func findInRun(_ key: InstanceKey) -> Slot? {
        let parameter = key.parameter!
        return runs[key.ofFactory].flatMap { parameter.run!.find(parameter, $0) }
    }

    /// Applies `change` to the slot of `key`, whose parameter has a run, in place.
    private mutating func change(_ key: InstanceKey, _ change: (inout Slot?) -> Void) {
        let parameter = key.parameter!
        runs.changeValue(forKey: key.ofFactory) { run in
            parameter.run!.change(parameter, &run, change)
        }
    }
}
