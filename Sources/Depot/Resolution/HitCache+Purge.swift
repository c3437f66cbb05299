internal import CDepotAtomics

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

// Taking back, from every thread's cache, what a table or a container let go of.
extension HitCache {
    /// Empties, on every thread, the entries of cells that `owner` (a manager, or a singleton
    /// realm) kept.
    ///
    /// With `templates`, from the deinit of a manager whose lifetime scopes' templates threads
    /// may keep, empties those too: not from a table's purge, which runs under the table's lock,
    /// where a template's release (of registrations that captured instances) must not run.
    static func purge(owner: ObjectIdentifier, templates: Bool = false) {
        // The registry holds unretained caches; the cells taken out are released after it.
        var dropped: [AnyObject] = []
        var spares: [ContainerManager.SpareState] = []
        registry.withLock { caches in
            for cache in caches.values {
                cache._withUnsafeGuaranteedRef {
                    $0.drop(owner: owner, templates: templates, into: &dropped, spares: &spares)
                }
            }
        }
        // Released and discarded here, with no cache locked.
        dropped.removeAll()
        for spare in spares {
            spare.discard()
        }
    }

    private func drop(
        owner: ObjectIdentifier, templates: Bool, into dropped: inout [AnyObject],
        spares: inout [ContainerManager.SpareState]
    ) {
        while depot_announce_and_check(purging, 1, busy) != 0 {
            sched_yield()
        }
        defer { depot_atomic_store(purging, 0) }
        if templates, let template = scopeTemplate, template.origin == owner {
            dropped.append(template)
            scopeTemplate = nil
        }
        if templates, let spare = spareState, spare.origin == owner {
            spares.append(spare)
            spareState = nil
        }
        for index in 0..<Self.capacity {
            let entry = entries + index
            guard entry.pointee.manager == owner || entry.pointee.realm == owner,
                let cell = entry.pointee.cell
            else { continue }
            dropped.append(cell)
            // Only the cell: the owner reads the rest of an entry without the handshake. An
            // entry of kind `kept` without a cell is a miss.
            entry.pointee.cell = nil
        }
    }
}
