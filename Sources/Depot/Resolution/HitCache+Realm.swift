// Singleton cells a thread remembers by singleton realm rather than by container, so that a
// container it has not used before (a request's lifetime scope) finds them without the realm's
// lock. Such an entry has no manager; its `scope` holds the container type.
extension HitCache {
    /// The cell a singleton realm keeps for `key` made by containers of `containerType`, if this
    /// thread saw it at the realm's `generation` (``rememberRealm(_:realm:key:containerType:generation:)``):
    /// a singleton hit from a container the thread has not used before (a request's lifetime
    /// scope) without the realm's lock, which every thread shares.
    func realmCell(
        realm: ObjectIdentifier, key: FactoryKey, containerType: ObjectIdentifier,
        generation: UInt64
    ) -> InstanceTable.Cell? {
        var entry = set(realm, key)
        if !Self.isRealmEntry(entry, of: realm, key, containerType) {
            entry += 1
            guard Self.isRealmEntry(entry, of: realm, key, containerType) else { return nil }
        }
        guard entry.pointee.realmGeneration == generation, enter() else { return nil }
        defer { leave() }
        return entry.pointee.cell
    }

    /// Whether `entry` is a realm entry about `key` made by containers of `containerType`.
    @inline(__always)
    private static func isRealmEntry(
        _ entry: UnsafeMutablePointer<Entry>, of realm: ObjectIdentifier, _ key: FactoryKey,
        _ containerType: ObjectIdentifier
    ) -> Bool {
        entry.pointee.manager == nil && entry.pointee.realm == realm && entry.pointee.key == key
            && entry.pointee.scope == containerType
    }

    /// Remembers a singleton `cell` that `prepare` found under the realm's lock at
    /// `generation`, for ``realmCell(realm:key:containerType:generation:)``. Its entry has no
    /// manager, and its `scope` holds the container type.
    func rememberRealm(
        _ cell: InstanceTable.Cell, realm: ObjectIdentifier, key: FactoryKey,
        containerType: ObjectIdentifier, generation: UInt64
    ) {
        let first = set(realm, key)
        guard enter() else { return }
        let replaced = store(
            Entry(
                manager: nil, key: key, scope: containerType, realm: realm,
                realmGeneration: generation, cell: cell),
            in: first
        ) { Self.isRealmEntry($0, of: realm, key, containerType) }
        leave()
        _ = replaced
    }
}
