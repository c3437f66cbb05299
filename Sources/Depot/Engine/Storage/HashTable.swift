/// A key of a ``HashTable``: equal keys have equal hashes.
protocol TableKey: Equatable {
    /// The key's identity words, combined; ``HashTable`` mixes them.
    var tableHash: UInt { get }
}

extension ObjectIdentifier: TableKey {
    var tableHash: UInt { UInt(bitPattern: self) }
}

/// A hash table with open addressing and linear probing, for the tables Depot looks in on every
/// resolve (registrations, instance cells, graph instances): it hashes the key's identity words
/// (``TableKey/tableHash``) where a `Dictionary` runs SipHash. Not seeded per process: keys are
/// factory declarations, and a parameter adds its own, seeded, `hashValue`. At most three
/// quarters of the slots are full.
///
/// Robin Hood order: along a run of full slots, entries stand in the order of the slots where
/// their probes start, so each is at most a few slots from its start, and a lookup stops where
/// its key would stand. Without it, one key among thousands could take dozens of probes,
/// and looking for a missing key walk to the end of its run.
struct HashTable<Key: TableKey, Value>: Sequence {
    typealias Element = (key: Key, value: Value)

    /// A power of two of slots, or none.
    private var slots: [Element?] = []
    private(set) var count = 0

    /// An empty table, with `capacity` slots (a power of two, or none) allocated now.
    init(capacity: Int = 0) {
        if capacity > 0 { resize(to: capacity) }
    }

    var isEmpty: Bool { count == 0 }

    /// How many slots the table has: a power of two, three quarters full at most.
    var capacity: Int { slots.count }

    var keys: [Key] { map(\.key) }

    /// The value kept for `key`; setting `nil` removes it.
    subscript(key: Key) -> Value? {
        get { inlinedValue(forKey: key) }
        set {
            if let newValue {
                updateValue(newValue, forKey: key)
            } else {
                removeValue(forKey: key)
            }
        }
    }

    /// The value kept for `key`, with the probe inlined where it is called: the subscript's
    /// getter, and a hit's look-up, where what is known of its key (no owner, no parameter)
    /// folds.
    @inline(__always)
    func inlinedValue(forKey key: Key) -> Value? {
        index(of: key).map { slots[$0]!.value }
    }

    /// Keeps `value` for `key`; returns the value it replaces, if any.
    @discardableResult
    mutating func updateValue(_ value: Value, forKey key: Key) -> Value? {
        if let index = index(of: key) {
            defer { slots[index] = (key, value) }
            return slots[index]!.value
        }
        insert(value, forKey: key)
        return nil
    }

    /// Keeps `value` for `key`, which has none.
    mutating func insert(_ value: Value, forKey key: Key) {
        if (count + 1) * 4 > slots.count * 3 {
            resize(to: Swift.max(2, slots.count * 2))
        }
        // The new entry takes the slot of the first entry nearer its start than the new one
        // is to its own, which moves on in its place: the order above.
        var entry = (key: key, value: value)
        var index = start(of: key)
        var distance = 0
        while let occupant = slots[index] {
            let occupantDistance = self.distance(of: occupant.key, at: index)
            if occupantDistance < distance {
                slots[index] = entry
                (entry, distance) = (occupant, occupantDistance)
            }
            index = next(index)
            distance += 1
        }
        slots[index] = entry
        count += 1
    }

    /// Keeps `value` for `key` in place of the value there, if `isReplaced` accepts that one;
    /// returns whether it did.
    mutating func replaceValue(
        forKey key: Key, with value: Value, if isReplaced: (Value) -> Bool
    ) -> Bool {
        guard let index = index(of: key), isReplaced(slots[index]!.value) else { return false }
        slots[index] = (key, value)
        return true
    }

    /// Removes the value kept for `key`; returns it, if any.
    @discardableResult
    mutating func removeValue(forKey key: Key) -> Value? {
        guard var hole = index(of: key) else { return nil }
        let removed = slots[hole]!.value
        slots[hole] = nil
        count -= 1
        // Every entry after the hole, up to the next empty slot, stays reachable from its
        // start, in order: one whose probe passed the hole moves into it, leaving a hole behind.
        var index = next(hole)
        while let entry = slots[index] {
            let mask = slots.count - 1
            if (index - start(of: entry.key)) & mask >= (index - hole) & mask {
                slots[hole] = entry
                slots[index] = nil
                hole = index
            }
            index = next(index)
        }
        return removed
    }

    /// Removes the entries `isRemoved` selects; returns their values. A large table left less
    /// than a quarter full gives room back, so that a burst of keys (parameters, say) that a
    /// sweep or reset then removes does not keep its peak size for ever.
    mutating func remove(where isRemoved: (Element) -> Bool) -> [Value] {
        let removed = filter(isRemoved).compactMap { removeValue(forKey: $0.key) }
        var room = slots.count
        while room > 64, count * 4 < room { room /= 2 }
        if room < slots.count { resize(to: room) }
        return removed
    }

    /// Removes every entry; `keepingCapacity` keeps the slots for the entries to come.
    mutating func removeAll(keepingCapacity: Bool = false) {
        if keepingCapacity {
            for index in slots.indices where slots[index] != nil { slots[index] = nil }
        } else {
            slots = []
        }
        count = 0
    }

    func makeIterator() -> IndexingIterator<[Element]> {
        slots.compactMap { $0 }.makeIterator()
    }

    /// Whether an entry is kept for `key`.
    func contains(_ key: Key) -> Bool { index(of: key) != nil }

    /// The slot of `key`'s entry: a probe stops at the first entry nearer its start than `key`
    /// would be (the order above), so a missing key does not walk on to the end of the run.
    // Inlined into each lookup, where what is known of the key (a hit's has no owner and no
    // parameter) folds away.
    @inline(__always)
    private func index(of key: Key) -> Int? {
        guard count > 0 else { return nil }
        var index = start(of: key)
        var distance = 0
        while let candidate = slots[index]?.key {
            if candidate == key { return index }
            if self.distance(of: candidate, at: index) < distance { return nil }
            index = next(index)
            distance += 1
        }
        return nil
    }

    /// How many slots after its start the entry for `key` at `index` stands.
    @inline(__always)
    private func distance(of key: Key, at index: Int) -> Int {
        (index - start(of: key)) & (slots.count - 1)
    }

    /// The slot where a probe for `key` starts: the high bits of its hash, mixed.
    @inline(__always)
    private func start(of key: Key) -> Int {
        let mixed = UInt64(truncatingIfNeeded: key.tableHash) &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: mixed >> (64 - slots.count.trailingZeroBitCount))
    }

    @inline(__always)
    private func next(_ index: Int) -> Int {
        (index + 1) & (slots.count - 1)
    }

    private mutating func resize(to capacity: Int) {
        let entries = slots
        // Appended into reserved room, which is compiled for the element type here, where
        // `Array(repeating:count:)` allocates in the standard library's generic code, looking
        // the array's type up at run time.
        slots = []
        slots.reserveCapacity(capacity)
        for _ in 0..<capacity { slots.append(nil) }
        count = 0
        // Each key is in `entries` once: none is looked for.
        for case let entry? in entries {
            insert(entry.value, forKey: entry.key)
        }
    }
}
