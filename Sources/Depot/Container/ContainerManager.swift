import Atomics

/// Owns a container's registrations, its per-container scope caches and its settings.
// @unchecked Sendable: all mutable state is inside `state`, a `Locked`.
public final class ContainerManager: @unchecked Sendable {
    let state: Locked<State>

    /// Makes a manager with no registrations and empty caches, whose singletons live in the
    /// isolated storage current now, if any.
    public convenience init() {
        self.init(realm: SingletonRealm.isolated)
    }

    init(realm: SingletonRealm?, isValidationCopy: Bool = false) {
        self.isValidationCopy = isValidationCopy
        DepotCopies.checked
        state = Locked(beside: { State(isolatedRealm: realm, flags: $0) })
        flags = state.word
    }

    /// Whether this is a validation's copy of a manager (see Validation.swift), in which a
    /// validating resolve goes on as an ordinary one.
    @usableFromInline let isValidationCopy: Bool

    /// How many validations run now, in the process: `Validation.running`, which a resolve
    /// reads here, through the manager it already holds.
    @usableFromInline let validations = Validation.running

    /// Whether a validation runs now: the one read a resolve makes when none does.
    @inlinable
    var isValidating: Bool { validations.load(ordering: .relaxed) != 0 }

    /// What resolves read without the lock (see ``Flags``); written only under the lock. The
    /// word beside `state`, in its allocation, which this manager keeps alive.
    @usableFromInline let flags: AtomicWord

    /// In one read: whether the container is plain, whether `key` may be registered (its bit
    /// is set in the filter), whether a resolve is checked for a captive owner, and the version
    /// of the registrations.
    @inlinable
    func plainness(for key: FactoryKey)
        -> (isPlain: Bool, checksRegistration: Bool, checksCaptive: Bool, version: UInt64)
    {
        let word = flags.load()
        let checksRegistration =
            word & Flags.registeredKeys != 0 && word & key.filterBit != 0
        let checksCaptive = word & Flags.checksCaptive != 0
        return (word & Flags.plain != 0, checksRegistration, checksCaptive, word & Flags.version)
    }

    /// The version of the registrations, which advances with every change to them: a resolve
    /// reads it before it makes its plan, and starts a creation only if it is still current.
    @usableFromInline
    var version: UInt64 { flags.load() & Flags.version }

    /// Whether the registrations are still at `version`, read under the lock of the table where
    /// a creation would start: a change advances it before it removes the factory's instances
    /// and creations, so what a replaced closure makes is never kept.
    @usableFromInline
    func isCurrent(_ version: UInt64) -> Bool { self.version == version }

    /// The version of the registrations now, if the one for `key` is still `registration`: a
    /// plan made with it then stands at that version.
    @usableFromInline
    func version(ifStill registration: Registration?, registeredFor key: FactoryKey)
        -> UInt64?
    {
        state.withLock { $0.registrations[key] === registration ? version : nil }
    }

    deinit {
        // A lifetime scope's caches are in no scope's holders: nothing to take, no lock.
        guard flags.loadRelaxed() & Flags.tracksNoHolders == 0 else { return }
        // The scopes' holders let go of the caches.
        let tracked = state.withLock { $0.instances.tracked }
        tracked.untrack(caches)
    }

    /// Forgets registrations, contexts and cached instances, as `options` says.
    ///
    /// - Parameter options: what to forget; ``FactoryResetOptions/all`` by default. Forgetting
    ///   registrations runs `autoRegister()` again before the next use (never for a child
    ///   container, whose parent has run it). For a container that uses another's caches
    ///   (`useScope(from:)`), the caches forgotten are those shared ones.
    ///
    /// Singletons follow one rule, the same for `register`, `pop()` and this: the singletons
    /// made from a registration that goes are dropped with it, so the next resolve makes one
    /// from what applies now. Other singletons stay; reset them with `Scope.singleton.reset()`.
    public func reset(options: FactoryResetOptions = .all) {
        let (sharedCaches, removed, containerType) = state.withLock { $0.reset(options) }
        sharedCaches?.state.withLock { $0.instances.removeAll() }
        if !removed.isEmpty, let containerType {
            removeSingletons(of: removed, containerType: containerType)
            dropDependents(of: removed)
        }
    }

    /// Forgets the instances this container keeps for `scope`.
    ///
    /// A container does not own the instances of process-wide scopes (``Scope/singleton``,
    /// ``Scope/weakSingleton``, a process-placed ``Scope/Custom``): this leaves them alone, as
    /// FactoryKit does; `Scope.singleton.reset()` resets them. For a custom scope, the storage's
    /// `removeAll()` is called.
    public func reset(scope: Scope) {
        guard scope.placement != .process else { return }
        removeInstances(of: scope)
    }

    /// Saves registrations, contexts and cached instances, so `pop()` can put them back.
    public func push() {
        state.withLock { $0.push() }
    }

    /// Puts back what the last `push()` saved; does nothing if nothing was pushed.
    ///
    /// What it replaces is dropped: the registrations made since `push()`, the instances
    /// cached since, and the singletons of the factories whose registrations it puts back (as
    /// `register` drops them). They are released on the thread that calls `pop()`: call it
    /// from the main actor where they are of main-actor types.
    public func pop() {
        let (changed, containerType) = state.withLock { $0.pop() }
        guard !changed.isEmpty, let containerType else { return }
        removeSingletons(of: changed, containerType: containerType)
        dropDependents(of: changed)
    }

    /// Forgets the singletons of the factories `keys` of containers of `containerType`.
    func removeSingletons(of keys: [FactoryKey], containerType: ObjectIdentifier) {
        realm.instances.withLock { table in
            for key in keys {
                table.removeInstances(of: key, owner: containerType)
            }
        }
    }

    func removeInstances(of scope: Scope) {
        cacheOwner.caches.removeInstances(of: scope)
    }

    /// The manager whose per-container caches this one uses (`useScope(from:)`), or itself.
    var cacheOwner: ContainerManager {
        state.withLock { $0.cacheOwner } ?? self
    }

    /// Runs `body` on the per-container caches this manager uses, under their lock.
    func withCaches<Result>(_ body: (inout InstanceTable) -> Result) -> Result {
        cacheOwner.state.withLock { body(&$0.instances) }
    }

    /// A manager's per-container caches, as scopes' holders keep them for `reset()`.
    typealias Caches = Locked<State>

    /// The per-container caches of this manager (see ``Caches``).
    var caches: Caches { state }
}

extension Locked where State == ContainerManager.State {
    /// Forgets the instances of `scope` these caches keep.
    func removeInstances(of scope: Scope) {
        // A custom storage's removeAll() runs here, by design (see `ScopeStorage`).
        withLock { state in
            state.instances.removeInstances(of: scope)
        }
    }
}

// The changes `reset(options:)`, `push()` and `pop()` make, under the manager's lock.
extension ContainerManager.State {
    /// Forgets what `options` says; returns the manager whose caches this one uses, if they
    /// must be emptied too, and the keys whose registered factory or modifiers went, whose
    /// singletons go too (as `register` drops them), after this lock.
    mutating func reset(_ options: FactoryResetOptions) -> (
        sharedCaches: ContainerManager?, removed: [FactoryKey], containerType: ObjectIdentifier?
    ) {
        // One rule: what the reset removes (a registered factory, modifiers, contexts), it
        // drops the singletons of.
        let removed: [FactoryKey]
        switch options {
        case .all:
            removed = Array(registrations.keys)
            seldomUsed?.madeByContext.removeAll()
        case .registration: removed = registrations.filter { !$0.value.hasOnlyContexts }.map(\.key)
        case .context:
            let registrations = registrations
            removed = takeMadeByContext { registrations[$0]?.contexts.isEmpty == false }
        default: removed = []
        }
        switch options {
        case .none:
            break
        case .all:
            removeAllRegistrations()
            instances.removeAll()
            // A child never runs autoRegister(): its parent has.
            isAutoRegistered = parent != nil
        case .registration:
            registrations.keys.forEach { removeFactory(for: $0) }
            isAutoRegistered = parent != nil
        case .context:
            registrations.keys.forEach { removeContexts(for: $0) }
        case .scope:
            instances.removeAll()
        }
        let sharedCaches = options == .all || options == .scope ? cacheOwner : nil
        return (sharedCaches, removed, containerType)
    }

    /// Takes out the factories a context made an instance of that `isRemoved` holds for.
    mutating func takeMadeByContext(where isRemoved: (FactoryKey) -> Bool) -> [FactoryKey] {
        guard let made = seldomUsed?.madeByContext, !made.isEmpty else { return [] }
        let removed = made.filter(isRemoved)
        seldom.madeByContext.subtract(removed)
        return Array(removed)
    }

    /// Saves the registrations and kept instances; copies references, releases nothing.
    mutating func push() {
        seldom.snapshots.append(
            ContainerManager.Snapshot(
                registrations: registrations, instances: instances.snapshot))
    }

    /// Puts back what the last `push()` saved; returns the keys whose registrations changed,
    /// for their singletons to go too.
    mutating func pop() -> (changed: [FactoryKey], containerType: ObjectIdentifier?) {
        guard let snapshot = seldom.snapshots.popLast() else { return ([], nil) }
        let changed = Set(registrations.keys).union(snapshot.registrations.keys).filter {
            registrations[$0] !== snapshot.registrations[$0]
        }
        removeAllRegistrations()
        registeredKeys = snapshot.registrations.keys.reduce(0) { $0 | $1.filterBit }
        registrations = snapshot.registrations
        instances.restore(snapshot.instances)
        return (Array(changed), containerType)
    }
}
