/// The cache hits one thread has seen lately, so that resolving a kept instance again takes no
/// lock: the lock-free half of the hit path.
///
/// An entry says: in `manager`, the factory `key` declared with `scope` resolved to the strongly
/// kept `cell`, while the manager's state (and, for a process-wide scope, the singleton table)
/// had these generations. Every change of that state takes a new generation, so an entry whose
/// generations are still current describes a plain hit exactly as `prepare` would find it. The
/// entry holds the cell weakly: it keeps nothing alive, and a cell a reset dropped reads as
/// `nil`. Each thread has its own entries, so reading them writes nothing another thread reads.
struct HitCache {
    struct Entry {
        var manager: ObjectIdentifier?
        var key: FactoryKey
        var scope: ObjectIdentifier?
        var generation: UInt64 = 0
        /// The singleton table's generation, for process-wide scopes; 0 for the others.
        var realmGeneration: UInt64 = 0
        weak var cell: InstanceTable.Cell?
    }

    /// A power of two: entries are found by the top bits of a hash.
    private static let capacity = 256
    private static let shift = UInt64(64 - 8)
    private let entries: UnsafeMutablePointer<Entry>

    init() {
        entries = .allocate(capacity: Self.capacity)
        entries.initialize(
            repeating: Entry(manager: nil, key: FactoryKey(name: "", type: Void.self), scope: nil),
            count: Self.capacity)
    }

    /// Frees the entries; the cache must not be used after.
    func deallocate() {
        entries.deinitialize(count: Self.capacity)
        entries.deallocate()
    }

    @inline(__always)
    private func slot(_ manager: ContainerManager, _ key: FactoryKey) -> Int {
        // Fibonacci hashing of the three addresses: no SipHash on the hot path.
        let mixed =
            UInt64(key.name) ^ UInt64(UInt(bitPattern: key.type)) &* 31
            ^ UInt64(UInt(bitPattern: ObjectIdentifier(manager))) &* 17
        return Int(truncatingIfNeeded: (mixed &* 0x9E37_79B9_7F4A_7C15) >> Self.shift)
    }

    /// The cell of a plain hit of `key` declared with `scope` in `manager`, if this thread saw
    /// one and nothing changed since.
    @inline(__always)
    func cell(manager: ContainerManager, key: FactoryKey, scope: Scope) -> InstanceTable.Cell? {
        let entry = entries + slot(manager, key)
        guard entry.pointee.manager == ObjectIdentifier(manager), entry.pointee.key == key,
            entry.pointee.scope == ObjectIdentifier(scope),
            entry.pointee.generation == manager.state.generation,
            entry.pointee.realmGeneration == 0
                || entry.pointee.realmGeneration == manager.realm.instances.generation
        else { return nil }
        return entry.pointee.cell
    }

    /// Remembers a plain hit that `prepare` found under the manager's lock (and the singleton
    /// table's, for a process-wide scope) at these generations.
    func remember(
        _ cell: InstanceTable.Cell, manager: ContainerManager, key: FactoryKey, scope: Scope,
        generation: UInt64, realmGeneration: UInt64
    ) {
        let entry = entries + slot(manager, key)
        entry.pointee.manager = ObjectIdentifier(manager)
        entry.pointee.key = key
        entry.pointee.scope = ObjectIdentifier(scope)
        entry.pointee.generation = generation
        entry.pointee.realmGeneration = realmGeneration
        entry.pointee.cell = cell
    }
}
