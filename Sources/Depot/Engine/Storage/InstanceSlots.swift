/// The slots of an ``InstanceTable``, by key. A key with a parameter of a factory that keeps
/// one instance per value is looked for in that factory's ``ParameterRun``, a `Dictionary` of
/// the parameter's own type; every other key in one ``HashTable``.
struct InstanceSlots: Sequence {
    typealias Slot = InstanceTable.Slot
    typealias Element = (key: InstanceKey, value: Slot)

    private var plain = HashTable<InstanceKey, Slot>()
    /// Each factory's run, by its key without a parameter.
    private var runs = [InstanceKey: ParameterRun]()

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
            swapInRun(key, newValue)
        }
    }

    /// The slot kept for `key`, the table's probe inlined: a hit's look-up.
    @inline(__always)
    func inlinedSlot(for key: InstanceKey) -> Slot? {
        Self.isInRun(key) ? findInRun(key) : plain.inlinedValue(forKey: key)
    }

    /// Keeps `slot` for `key`; returns the slot it replaces, if any.
    @inline(__always)
    @discardableResult
    mutating func updateValue(_ slot: Slot, forKey key: InstanceKey) -> Slot? {
        guard Self.isInRun(key) else { return plain.updateValue(slot, forKey: key) }
        return swapInRun(key, slot)
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
        guard let current = findInRun(key), isReplaced(current) else { return false }
        swapInRun(key, slot)
        return true
    }

    /// Removes the slot kept for `key`; returns it, if any.
    @inline(__always)
    @discardableResult
    mutating func removeValue(forKey key: InstanceKey) -> Slot? {
        guard Self.isInRun(key) else { return plain.removeValue(forKey: key) }
        return swapInRun(key, nil)
    }

    /// Removes the entries `isRemoved` selects; returns their slots.
    @inline(never)
    mutating func remove(where isRemoved: (Element) -> Bool) -> [Slot] {
        var removed = plain.remove(where: isRemoved)
        for entry in runEntries where isRemoved(entry) {
            removed.append(entry.value)
            swapInRun(entry.key, nil)
        }
        return removed
    }

    /// Removes every entry.
    mutating func removeAll() {
        plain.removeAll()
        runs.removeAll()
    }

    /// How many slots the table has room for.
    var capacity: Int {
        runs.values.reduce(plain.capacity) { $0 + $1.capacity }
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
        key.parameter?.hasRun ?? false
    }

    /// The slot kept for `key`, whose parameter has a run.
    @inline(never)
    private func findInRun(_ key: InstanceKey) -> Slot? {
        let parameter = key.parameter!
        return runs[key.ofFactory].flatMap { parameter.run!.find(parameter, $0) }
    }

    /// Keeps `slot` for `key`, whose parameter has a run (none: removes it); returns the slot
    /// it replaces.
    @inline(never)
    @discardableResult
    private mutating func swapInRun(_ key: InstanceKey, _ slot: Slot?) -> Slot? {
        let parameter = key.parameter!
        // In place: the run stays uniquely referenced unless a snapshot shares it.
        return parameter.run!.swap(parameter, &runs[key.ofFactory], slot)
    }
}
