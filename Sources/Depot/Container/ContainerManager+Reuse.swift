// A `Container`'s lifetime scope that goes leaves its locked state, emptied, to the next lifetime
// scope of the same template its thread makes: a request's scope then allocates no state, lock or
// table dictionaries, destroys none, and is not noted again in the holders of the scopes it
// keeps instances of; only its container, its manager and its instances' cells are made and
// freed.
extension ContainerManager {
    /// A lifetime scope's locked state, emptied, kept by the thread its manager went on (in its
    /// ``HitCache``, so that a purge of the container takes it back with the template), with the
    /// identities of its template and of the template's container.
    ///
    /// It stays noted in the holders of the scopes it kept instances of (so the next scope
    /// need not be noted again): a `Scope.reset()` or `shutdown()` may take its lock at any
    /// time, as for any container's state, and finds its table empty or the next scope's. A
    /// spare state that is not reused is let go with ``discard()``, which takes it out of them.
    struct SpareState {
        let state: Caches
        /// The template the state was made from, which the state keeps alive.
        let template: ObjectIdentifier
        /// The manager of the template's container.
        let origin: ObjectIdentifier

        /// Takes the state out of the holders it is noted in; it goes when released.
        func discard() {
            state.withLockReading { state, _ in state.instances.tracked }.untrack(state)
        }
    }

    /// A manager for a new lifetime scope of this manager's container, made on the thread's
    /// spare state if that is of the thread's current template of the container (see
    /// ``HitCache/takeSpareState(generation:)``); `nil` otherwise, for `init(lifetimeScopeOf:)`
    /// to make one.
    @usableFromInline
    func reusedLifetimeScope() -> ContainerManager? {
        guard
            let (spare, template) = ResolutionFrame.currentReference._withUnsafeGuaranteedRef({
                $0.hits.takeSpareState(generation: state.generation)
            })
        else { return nil }
        return ContainerManager(reusing: spare, of: template)
    }

    /// Makes a manager for a lifetime scope of `template`'s container on `spare`, the emptied
    /// state of an earlier one of the same template that went on this thread untouched (see
    /// ``State/spareTemplate()``): its registrations and settings are the template's.
    /// Unretained: `spare` holds `template`.
    convenience init(reusing spare: consuming Caches, of template: Unmanaged<ScopeTemplate>) {
        // Nothing under the lock changes (a reset may hold it, see `SpareState`): only a new
        // generation, as a new state has, so that what threads remember of the old manager is
        // not this one's. Taken before the manager exists, so that `spare` moves into it.
        spare.renewGeneration()
        self.init(locked: spare)
        markPristine(of: template)
    }

    /// Leaves this going manager's state, made from `template` and found reusable (see
    /// ``State/spareTemplate()``), emptied, to the next lifetime scope its thread makes. From
    /// the deinit, which took the state's cells out (in exchange for the thread's spare
    /// storage, if it kept one: the two sets of dictionaries take turns).
    func leaveState(of template: Unmanaged<ScopeTemplate>, to hits: HitCache) {
        // Unretained: the state, which this deinit still holds, holds its template.
        let origin = template._withUnsafeGuaranteedRef { $0.origin }
        hits.keep(
            SpareState(
                state: state, template: ObjectIdentifier(template.takeUnretainedValue()),
                origin: origin))
    }
}

extension ContainerManager.State {
    /// This lifetime scope's template if its state can serve the next lifetime scope of that
    /// template its thread makes: if it is untouched, still pristine (no registration, parent or
    /// shared caches changed since it was made) with no setting set, auto-registered, with
    /// nothing made on first use (the seldom used part, its container type, a realm or
    /// templates of its own) and a table with nothing but cells.
    func spareTemplate() -> Unmanaged<ScopeTemplate>? {
        guard template != nil, pristineWord != nil, !isSettingChanged, isAutoRegistered,
            !isAutoRegistering, seldomUsed == nil, containerType == nil, realm == nil,
            !hasScopeTemplates, instances.isReusable
        else { return nil }
        // Unretained: the state holds it for as long as the caller reads it.
        return Unmanaged.passUnretained(template.unsafelyUnwrapped)
    }
}

extension InstanceTable {
    /// Whether this table holds nothing but cells: no creation in flight, no custom storage, no
    /// teardown, no parameterised instance, no thread's memory of a cell.
    var isReusable: Bool {
        creations.isEmpty && storages.isEmpty && stored.isEmpty && disposals.isEmpty
            && parameterised.isEmpty && rememberedBy == nil
    }
}

// The spare state, kept with the template in the thread's hit cache.
extension HitCache {
    /// The thread's spare state, taken for a new lifetime scope of the container whose state
    /// has `generation`, with the thread's template of that container, if the state is that
    /// template's and no isolated singletons apply (whose realm a new scope would keep); else
    /// `nil`, leaving the spare to ``discardSpareState()``. The template is not counted: the
    /// state holds it, and nothing here releases anything that might replace it.
    func takeSpareState(generation: UInt64) -> (
        state: ContainerManager.Caches, template: Unmanaged<ScopeTemplate>
    )? {
        guard ContainerManager.isolatedRealm == nil, enter() else { return nil }
        defer { leave() }
        guard let template = scopeTemplate.map(Unmanaged.passUnretained),
            template._withUnsafeGuaranteedRef({ $0.generation }) == generation,
            spareState?.template == ObjectIdentifier(template.takeUnretainedValue()),
            let spare = spareState.take()
        else { return nil }
        return (spare.state, template)
    }

    /// Lets the thread's spare state go, if it kept one: a new lifetime scope found it not of
    /// its template.
    func discardSpareState() {
        guard enter() else { return }
        let spare = spareState.take()
        leave()
        // Discarded after leaving: a state's last release destroys its registrations.
        spare?.discard()
    }

    /// Keeps `spare` as the thread's, in place of the one before, which is discarded; during a
    /// purge, discards `spare`.
    func keep(_ spare: ContainerManager.SpareState) {
        guard enter() else {
            spare.discard()
            return
        }
        let replaced = spareState
        spareState = spare
        leave()
        // Discarded after leaving: a state's last release destroys its registrations.
        replaced?.discard()
    }
}
