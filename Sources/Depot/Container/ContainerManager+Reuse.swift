// A `Container`'s lifetime scope that goes leaves its locked state, emptied, to the next lifetime
// scope of the same template its thread makes: a request's scope then allocates no state, lock or
// table dictionaries, and destroys none; only its manager and container are made and freed.
extension ContainerManager {
    /// A lifetime scope's locked state, emptied, kept by the thread its manager went on (in its
    /// ``HitCache``, so that a purge of the container takes it back with the template), with the
    /// identities of its template and of the template's container. Nothing else refers to it: it
    /// is kept only when its manager held the last reference.
    struct SpareState {
        let state: Caches
        /// The template the state was made from, which the state keeps alive.
        let template: ObjectIdentifier
        /// The manager of the template's container.
        let origin: ObjectIdentifier
    }

    /// Makes a manager for a lifetime scope of `template`'s container on `spare`, the emptied
    /// state of an earlier one of the same template that went on this thread untouched (see
    /// ``State/spareTemplate()``): its registrations and settings are the template's.
    convenience init(reusing spare: Caches, of template: ScopeTemplate) {
        self.init(locked: spare)
        // Without the lock: the spare state was its thread's alone (see `SpareState`). A new
        // generation, as a new state has: what threads remember of the old manager is not this
        // one's.
        spare.renewGeneration()
        spare.withUnsharedValue { $0.containerType = nil }
        markPristine(of: template)
    }

    /// Whether nothing but this manager holds its state: no reset that read the scopes' holders
    /// before they let go of it (see the deinit).
    var holdsStateAlone: Bool {
        // `isKnownUniquelyReferenced` reads a variable: `counted` shares the manager's reference
        // (taken without a retain, and given back with one before it is released), so the count
        // it reads is the state's own.
        var counted = Unmanaged.passUnretained(state).takeRetainedValue()
        defer { _ = Unmanaged.passRetained(counted) }
        return isKnownUniquelyReferenced(&counted)
    }

    /// Leaves this going manager's state, made from `template` and found reusable (see
    /// ``State/spareTemplate()``), to the next lifetime scope its thread makes, emptied. From the
    /// deinit, which holds the last reference to the state.
    func leaveState(of template: ScopeTemplate, to hits: HitCache) {
        // No lock: no other thread can reach the state. What the table kept is released here,
        // with no lock held, as the table's end would.
        state.withUnsharedValue { $0.instances.cells.removeAllKeepingCapacity() }
        hits.keep(
            SpareState(
                state: state, template: ObjectIdentifier(template), origin: template.origin))
    }
}

extension ContainerManager.State {
    /// This lifetime scope's template if its state can serve the next lifetime scope of that
    /// template its thread makes, and then its holders are forgotten (the manager's deinit lets
    /// go of them): if it is untouched, still pristine (no registration, parent or shared caches
    /// changed since it was made) with no setting set, auto-registered, with nothing made on
    /// first use (the seldom used part, a realm or templates of its own) and a table with
    /// nothing but cells.
    mutating func spareTemplate() -> ScopeTemplate? {
        guard let template, pristineWord != nil, !isSettingChanged, isAutoRegistered,
            !isAutoRegistering, seldomUsed == nil, realm == nil, !hasScopeTemplates,
            instances.isReusable
        else { return nil }
        instances.tracked = InstanceTable.TrackedScopes()
        return template
    }
}

extension InstanceTable {
    /// Whether this table holds nothing but cells: no creation in flight, no custom storage, no
    /// teardown, no parameterised instance, no thread's memory of a cell.
    var isReusable: Bool {
        creations.isIdle && storages.isEmpty && stored.isEmpty && disposals.isEmpty
            && parameterised.isEmpty && rememberedBy == nil
    }
}

// The spare state, kept with the template in the thread's hit cache.
extension HitCache {
    /// The thread's spare state, taken for a new lifetime scope of `template` if it is that
    /// template's and no isolated singletons apply (whose realm a new scope would keep); `nil`
    /// during a purge. Any other spare state is dropped.
    func takeSpareState(of template: ScopeTemplate) -> ContainerManager.Caches? {
        guard enter() else { return nil }
        let spare = spareState
        spareState = nil
        leave()
        guard let spare, spare.template == ObjectIdentifier(template),
            ContainerManager.isolatedRealm == nil
        else { return nil }
        return spare.state
    }

    /// Keeps `spare` as the thread's, in place of the one before; nothing during a purge.
    func keep(_ spare: ContainerManager.SpareState) {
        guard enter() else { return }
        var replaced: ContainerManager.SpareState? = spare
        swap(&replaced, &spareState)
        leave()
        // Released after leaving: a state's last release destroys its registrations.
        _ = replaced
    }
}
