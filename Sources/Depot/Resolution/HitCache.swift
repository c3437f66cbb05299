internal import CDepotAtomics

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The cache hits one thread has seen lately, so that resolving a kept instance again takes
/// neither the manager's lock nor a write to memory another thread uses: the lock-free half of
/// the hit path.
///
/// An entry says: in `manager`, the factory `key` declared with `scope` resolved to the strongly
/// kept `cell`, while the manager's state (and, for a process-wide scope, the singleton table)
/// had these generations. Every change of that state takes a new generation, so an entry whose
/// generations are still current describes a plain hit exactly as `prepare` would find it.
///
/// A pristine lifetime scope's entries are remembered under its template rather than itself
/// (``ContainerManager/hitOrigin``): every lifetime scope made from the same state of its
/// container then finds them, from its first resolve. They never hold a cell of the scope's own.
///
/// An entry can also say that `key` resolved as a plain `.unique` or `.graph` factory: no
/// registration, no observer, nothing to run but the declared closure (and, for `.graph`, the
/// lookup in the thread's resolution graph). Such an entry holds no cell.
///
/// Entries hold their cells strongly, so that a hit counts no reference but the instance's. So
/// that an entry never keeps an instance alive after its table dropped it, a table that gave
/// cells to hit caches purges the entries of every thread when it drops cells, and when its
/// manager or singleton realm goes (``purge(owner:)``).
///
/// A purge writes nothing in an entry but its cell, and the owning thread and a purge never
/// touch the cells, nor the owner write an entry, at once. Each announces itself in a word of
/// its own and then reads the other's (a handshake in which at least one sees the other): the
/// owner backs off (a miss, or nothing remembered) when a purge is on; a purge waits while the
/// owner is busy, which is never longer than reading one entry. Purges are serialised by the
/// registry's lock. So a kept hit writes only the owning thread's own word, and a plain
/// `.unique` or `.graph` resolve, which reads no cell, writes nothing: no lock, and no write to
/// memory that another thread uses.
@usableFromInline
final class HitCache: @unchecked Sendable {
    // @unchecked Sendable: the owning thread reads and writes the cells, and writes entries,
    // only between announcing itself busy and seeing no purge; a purge reads entries and writes
    // cells only between announcing itself and seeing the owner not busy. The rest of an entry,
    // which only its owner writes, its owner reads at any time. The registry is a `Locked`.
    struct Entry {
        var manager: ObjectIdentifier?
        var key: FactoryKey
        var scope: ObjectIdentifier?
        var generation: UInt64 = 0
        /// The singleton realm and its table's generation, for process-wide scopes.
        var realm: ObjectIdentifier?
        var realmGeneration: UInt64 = 0
        var cell: InstanceTable.Cell?
        /// What the entry remembers: `kept` (and `cell` is set), or a plain `unique` or
        /// `graph` resolve.
        var kind = Kind.kept
    }

    /// Two-way set-associative: a key's set (two adjacent entries, the more recently remembered
    /// first) is found by the top bits of a hash, so two hot factories whose hashes meet do not
    /// push each other out. 256 sets: a power of two.
    static let capacity = 512
    private static let shift = UInt64(64 - 8)
    let entries: UnsafeMutablePointer<Entry>
    /// 1 while the owning thread reads or writes entries.
    let busy: UnsafeMutablePointer<UInt64>
    /// 1 while a purge empties entries.
    let purging: UnsafeMutablePointer<UInt64>

    /// The thread's template for lifetime scopes of one container (``ScopeTemplate``): read and
    /// written by the owner, and emptied by a purge of its container, as cells are.
    var scopeTemplate: ScopeTemplate?
    /// The emptied state of the last `Container` lifetime scope that went on this thread
    /// untouched, for the next one it makes of the same template (``ContainerManager/SpareState``):
    /// emptied by a purge of its container, as the template is.
    var spareState: ContainerManager.SpareState?

    /// The caches of all threads, for purges.
    static let registry = Locked<[ObjectIdentifier: Unmanaged<HitCache>]>([:])

    init() {
        entries = .allocate(capacity: Self.capacity)
        entries.initialize(
            repeating: Entry(manager: nil, key: FactoryKey(name: "", type: Void.self), scope: nil),
            count: Self.capacity)
        // Two cache lines apart, so that the owner's writes to `busy` do not reach the line a
        // purge writes.
        busy = .allocate(capacity: 16)
        busy.initialize(repeating: 0, count: 16)
        purging = busy + 8
        let cache = Unmanaged.passUnretained(self)
        Self.registry.withLock { $0[ObjectIdentifier(self)] = cache }
    }

    /// Leaves the registry, discards the spare state and frees the entries; the cache must not
    /// be used after.
    func close() {
        Self.registry.withLock { $0[ObjectIdentifier(self)] = nil }
        spareState?.discard()
        spareState = nil
        entries.deinitialize(count: Self.capacity)
        entries.deallocate()
        busy.deinitialize(count: 16)
        busy.deallocate()
    }

    /// Announces the owning thread busy; `false` (and not busy) if a purge is on.
    @inline(__always)
    func enter() -> Bool {
        guard depot_announce_and_check(busy, 1, purging) == 0 else {
            depot_atomic_store(busy, 0)
            return false
        }
        return true
    }

    @inline(__always)
    func leave() {
        depot_atomic_store(busy, 0)
    }

    /// The first entry of the set of `key` in `owner`, a manager or a singleton realm.
    @inline(__always)
    func set(_ owner: ObjectIdentifier, _ key: FactoryKey) -> UnsafeMutablePointer<Entry> {
        // Fibonacci hashing of the three addresses: no SipHash on the hot path.
        let mixed =
            UInt64(key.name) ^ UInt64(UInt(bitPattern: key.type)) &* 31
            ^ UInt64(UInt(bitPattern: owner)) &* 17
        return entries + 2 * Int(truncatingIfNeeded: (mixed &* 0x9E37_79B9_7F4A_7C15) >> Self.shift)
    }

    /// Whether `entry` is about `key` declared with `scope` in `manager`.
    @inline(__always)
    private static func isEntry(
        _ entry: UnsafeMutablePointer<Entry>, of manager: ObjectIdentifier, _ key: FactoryKey,
        _ scope: ObjectIdentifier?
    ) -> Bool {
        entry.pointee.manager == manager && entry.pointee.key == key
            && entry.pointee.scope == scope
    }

    /// The cell of a plain hit of `key` declared with `scope` (`nil` for none) in `manager`, or
    /// that it resolves as a plain `.unique` or `.graph` factory, if this thread saw so and
    /// nothing changed since. On a kept hit the owner stays busy, so no purge can drop the cell
    /// while the caller reads it: the caller must call ``endHit()`` after.
    ///
    /// Only the cell needs the owner announced busy: a purge writes nothing else, so the rest of
    /// an entry, which only the owner writes, is read without the handshake, and a plain
    /// `.unique` or `.graph` resolve writes no memory at all.
    @usableFromInline
    func beginHit(manager: ContainerManager, key: FactoryKey, scope: ObjectIdentifier?) -> Hit? {
        let (id, generation) = manager.hitOrigin
        var entry = set(id, key)
        if !Self.isEntry(entry, of: id, key, scope) {
            entry += 1
            guard Self.isEntry(entry, of: id, key, scope) else { return nil }
        }
        guard entry.pointee.generation == generation,
            entry.pointee.realm == nil
                || entry.pointee.realmGeneration == manager.realmGeneration
        else { return nil }
        switch entry.pointee.kind {
        case .unique: return .unique
        case .graph: return .graph
        case .container: return .container
        case .kept: break
        }
        guard enter() else { return nil }
        guard let cell = entry.pointee.cell else {
            // Purged since it was remembered.
            leave()
            return nil
        }
        return .kept(cache: Unmanaged.passUnretained(self), cell: Unmanaged.passUnretained(cell))
    }

    /// Ends a kept hit that ``beginHit(manager:key:scope:)`` found.
    ///
    /// Declared to release nothing; ``ContainerManager/beginHit(for:scope:)`` says why.
    @usableFromInline
    @_effects(releasenone)
    func endHit() {
        leave()
    }

    /// Remembers a plain hit that `prepare` found under the manager's lock (and the singleton
    /// table's, for a process-wide scope) at these generations. Called under that lock, so a
    /// purge of the table cannot run between finding the cell and remembering it.
    ///
    /// `kind` says what a `nil` cell remembers: a plain `.unique`, `.graph` or `.container`
    /// resolve.
    ///
    /// A caller that found the cell without the realm's lock (in a realm entry) passes the
    /// realm's generation word as `unlessChanged`: the entry is written only if the realm is
    /// still at `realmGeneration` once this cache is busy, so a purge of that cell either came
    /// before (and nothing is written) or waits and empties the entry.
    func remember(
        _ cell: InstanceTable.Cell?, kind: Kind = .kept, origin id: ObjectIdentifier,
        key: FactoryKey, scope: Scope?, generation: UInt64, realm: SingletonRealm?,
        realmGeneration: UInt64, unlessChanged realmWord: UnsafeMutablePointer<UInt64>? = nil
    ) {
        let scopeID = scope.map { ObjectIdentifier($0) }
        let first = set(id, key)
        // During a purge nothing is remembered: the entry would be a miss at worst.
        guard enter() else { return }
        if let realmWord, depot_atomic_load(realmWord) != realmGeneration {
            leave()
            return
        }
        let replaced = store(
            Entry(
                manager: id, key: key, scope: scopeID, generation: generation,
                realm: realm.map { ObjectIdentifier($0) }, realmGeneration: realmGeneration,
                cell: cell, kind: kind),
            in: first
        ) { Self.isEntry($0, of: id, key, scopeID) }
        leave()
        _ = replaced
    }

    /// Writes `new` in the set that starts at `first`: over the entry `isSame` picks, else in
    /// the first place, whose entry moves to the second, pushing the older one out. Returns the
    /// entry written over, for the caller to release after leaving: the last release of an
    /// instance runs its deinit, which may resolve. Called busy.
    func store(
        _ new: Entry, in first: UnsafeMutablePointer<Entry>,
        isSame: (UnsafeMutablePointer<Entry>) -> Bool
    ) -> Entry {
        var entry = first
        if isSame(first + 1) {
            entry = first + 1
        } else if first.pointee.manager != nil || first.pointee.realm != nil, !isSame(first) {
            swap(&first.pointee, &(first + 1).pointee)
        }
        var replaced = new
        swap(&replaced, &entry.pointee)
        return replaced
    }
}
