internal import CDepotAtomics

/// What a lifetime scope copies from its container (registrations, parent, settings, singleton
/// realm), as the container's state was at one generation: read once per thread and generation,
/// so that making a lifetime scope (one per request) neither takes the container's lock nor
/// counts a reference to anything another thread's lifetime scopes also hold.
///
/// Each thread keeps its own (in its ``HitCache``), with a copy of the registrations dictionary
/// of its own: a lifetime scope retains only its thread's template. A container's generation is
/// unique in the process and changes with any change of its state, so a template whose
/// generation is the container's current one is the container's state now; and two templates of
/// one generation hold the same things, which is what lets threads remember hits in pristine
/// lifetime scopes by generation (``ContainerManager/hitOrigin``).
@usableFromInline
final class ScopeTemplate {
    /// The generation of the container's state this was read at.
    let generation: UInt64
    /// The container's manager; compared, never dereferenced.
    let origin: ObjectIdentifier
    let inheritance: ContainerManager.State.Inheritance
    let realm: SingletonRealm
    /// `realm`, to read without counting a reference to it: every thread's lifetime scopes
    /// share it, and the template keeps it alive.
    let realmReference: Unmanaged<SingletonRealm>

    init(
        generation: UInt64, origin: ObjectIdentifier,
        inheritance: ContainerManager.State.Inheritance, realm: SingletonRealm
    ) {
        self.generation = generation
        self.origin = origin
        self.inheritance = inheritance
        self.realm = realm
        realmReference = Unmanaged.passUnretained(realm)
    }
}

extension ContainerManager {
    /// The thread's template of this manager's container for a lifetime scope, if it is still
    /// current.
    @usableFromInline
    var currentScopeTemplate: ScopeTemplate? {
        ResolutionFrame.currentReference._withUnsafeGuaranteedRef {
            $0.hits.template(generation: state.generation)
        }
    }

    /// A new template of `container` (whose manager this is) for lifetime scopes made on this
    /// thread, read under the lock after `autoRegister()` has run, and kept as the thread's.
    @usableFromInline
    func makeScopeTemplate(of container: any ManagedContainer) -> ScopeTemplate {
        let hits = ResolutionFrame.current.hits
        autoRegisterIfNeeded(container)
        let realm = realm
        let template = state.withLockReading { state, generation in
            // Threads hold templates: this manager's deinit must take them back (`purge`).
            // Written once: every thread making scopes reads this state.
            if !state.hasScopeTemplates {
                state.hasScopeTemplates = true
            }
            return ScopeTemplate(
                generation: generation, origin: ObjectIdentifier(self),
                inheritance: state.inheritance(copyingRegistrations: true), realm: realm)
        }
        hits.keep(template)
        return template
    }

    /// Makes a manager for a lifetime scope of `template`'s container: its registrations,
    /// contexts, settings, parent and singletons, and empty caches. Until its registrations or
    /// settings change, it is pristine: threads remember its plain hits under the template.
    /// Its state is made before the manager exists: no lock, and no copy of it. (Where the
    /// thread's last lifetime scope of the same template went untouched, `newLifetimeScope()`
    /// reuses its state instead: see `reusedLifetimeScope()`.)
    @usableFromInline
    convenience init(lifetimeScopeOf template: ScopeTemplate) {
        // The thread's spare state, which `reusedLifetimeScope()` did not take (another
        // template's, or isolated singletons apply), goes while `template` is counted: a release
        // may run a deinit that replaces the thread's template.
        ResolutionFrame.currentReference._withUnsafeGuaranteedRef { $0.hits.discardSpareState() }
        self.init(
            state: State(
                lifetimeScopeOf: template, realm: Self.isolatedRealm,
                storage: ResolutionFrame.takeSpareStorage()))
        state.withUnsharedValue { $0.pristineWord = originAddress }
        markPristine(of: template)
    }

    /// Makes this new manager, made by a container's own `init()`, a lifetime scope of
    /// `template`'s container (see `State.becomeLifetimeScope`).
    @usableFromInline
    func adopt(_ template: ScopeTemplate) {
        let storage = ResolutionFrame.takeSpareStorage()
        state.withLock { state in
            state.becomeLifetimeScope(of: template, storage: storage)
            state.pristineWord = originAddress
        }
        markPristine(of: template)
    }

    /// Writes that this manager's hits are remembered under `template` (``hitOrigin``), whose
    /// realm it uses.
    @inline(__always)
    func markPristine(of template: ScopeTemplate) {
        markPristine(of: Unmanaged.passUnretained(template))
    }

    /// ``markPristine(of:)`` for a template something else keeps: read without counting a
    /// reference to it.
    @inline(__always)
    func markPristine(of template: Unmanaged<ScopeTemplate>) {
        let (generation, realm) = template._withUnsafeGuaranteedRef {
            ($0.generation, $0.realmReference)
        }
        depot_atomic_store(originAddress + 1, generation)
        depot_atomic_store(originAddress, UInt64(UInt(bitPattern: template.toOpaque())))
        bindRealm(realm)
    }

    /// Under whose name and generation threads remember this manager's plain hits: its own and
    /// its state's generation; for a pristine lifetime scope, its template's.
    @inline(__always)
    var hitOrigin: (id: ObjectIdentifier, generation: UInt64) {
        let template = depot_atomic_load(originAddress)
        guard template != 0 else { return (ObjectIdentifier(self), state.generation) }
        return (
            unsafeBitCast(UInt(template), to: ObjectIdentifier.self),
            depot_atomic_load(originAddress + 1)
        )
    }
}

extension ContainerManager.State {
    /// The state of a new lifetime scope of `template`'s container, with `storage` (the emptied
    /// tables of an earlier scope) for its instances: made whole, with none of the `didSet`s a
    /// change runs. What it takes from the template is what `becomeLifetimeScope` takes.
    init(
        lifetimeScopeOf template: ScopeTemplate, realm: SingletonRealm?,
        storage: InstanceTable.CellMap?
    ) {
        let inherited = template.inheritance
        var instances = InstanceTable()
        if var storage {
            instances.use(&storage)
        }
        self.init(
            registrations: inherited.registrations, instances: consume instances,
            isAutoRegistered: true, isEphemeral: true, defaultScope: inherited.defaultScope,
            trace: inherited.trace, logger: inherited.logger,
            promiseTriggersError: inherited.promiseTriggersError,
            decorator: inherited.decorator, clock: inherited.clock, parent: inherited.parent,
            realm: realm, template: template)
        updateIsObserved()
    }

    /// Makes this state, of a manager a container's own `init()` made, a lifetime scope of
    /// `template`'s container, as ``init(lifetimeScopeOf:realm:storage:)`` makes one; what that
    /// `init()` set that a template does not hold (dependency recording, shared caches) stays.
    mutating func becomeLifetimeScope(
        of template: ScopeTemplate, storage: InstanceTable.CellMap?
    ) {
        let inherited = template.inheritance
        if var storage {
            instances.use(&storage)
        }
        inherit(inherited)
        registrations = inherited.registrations
        isAutoRegistered = true
        isEphemeral = true
        parent = inherited.parent
        self.template = template
    }

    /// What a lifetime scope or child takes from this state; with a dictionary of registrations
    /// of its own if `copyingRegistrations` (the same registrations, in storage no other
    /// thread's scopes count references to).
    func inheritance(copyingRegistrations: Bool = false) -> Inheritance {
        Inheritance(
            registrations: copyingRegistrations && !registrations.isEmpty
                ? Dictionary(uniqueKeysWithValues: registrations.map { ($0.key, $0.value) })
                : registrations,
            parent: parent, defaultScope: defaultScope, trace: trace, logger: logger,
            promiseTriggersError: promiseTriggersError, decorator: decorator, clock: clock)
    }

    /// A change to what decides how a factory resolves: a lifetime scope is no longer its
    /// template, so threads stop remembering its hits under it.
    mutating func leaveTemplate() {
        guard let pristineWord else { return }
        depot_atomic_store(pristineWord, 0)
        self.pristineWord = nil
    }
}

// The thread's template, kept in its hit cache so that a purge of its container takes it back.
extension HitCache {
    /// The thread's template for lifetime scopes if it is of `generation`: the container's
    /// current generation, which no other container's state ever has.
    func template(generation: UInt64) -> ScopeTemplate? {
        guard enter() else { return nil }
        defer { leave() }
        guard let template = scopeTemplate, template.generation == generation else { return nil }
        return template
    }

    /// Keeps `template` as the thread's, in place of the one before; nothing during a purge.
    func keep(_ template: ScopeTemplate) {
        guard enter() else { return }
        var replaced: ScopeTemplate? = template
        swap(&replaced, &scopeTemplate)
        leave()
        // Released after leaving: its registrations' last release may run a deinit.
        _ = replaced
    }
}
