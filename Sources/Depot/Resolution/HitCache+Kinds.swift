// What an entry of a thread's hit cache remembers, and what a look in it finds.
extension HitCache {
    enum Kind {
        case kept
        case unique
        case graph
        /// A plain per-container caching factory of a pristine lifetime scope (remembered under
        /// its template): its instance is in the scope's own table.
        case container
    }

    /// What ``beginHit(manager:key:scope:)`` found.
    @usableFromInline
    enum Hit {
        /// A kept cell, to read before ``endHit()``.
        case kept(cache: Unmanaged<HitCache>, cell: Unmanaged<InstanceTable.Cell>)
        /// A plain `.unique` resolve: the caller runs the declared closure. The cache is not
        /// left busy.
        case unique
        /// A plain `.graph` resolve: the caller looks in the resolution graph, and runs the
        /// declared closure if the graph has no instance yet. The cache is not left busy.
        case graph
        /// A plain per-container caching factory of a pristine lifetime scope, declared with a
        /// scope: the caller looks in the scope's table, with no registration or setting to
        /// read first. The cache is not left busy.
        case container
    }
}
