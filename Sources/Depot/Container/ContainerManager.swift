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
        changeDropping { $0.reset(options) }
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
        change { $0.push() }
    }

    /// Puts back what the last `push()` saved; does nothing if nothing was pushed.
    ///
    /// What it replaces is dropped: the registrations made since `push()`, the instances
    /// cached since, and the singletons of the factories whose registrations it puts back (as
    /// `register` drops them). They are released on the thread that calls `pop()`: call it
    /// from the main actor where they are of main-actor types.
    public func pop() {
        changeDropping { $0.pop() }
    }

    /// Runs `transition` under the lock and publishes the flags word its new state decides.
    func change<Result>(_ transition: (inout State) -> Result) -> Result {
        state.withLock { state in
            defer { state.publish() }
            return transition(&state)
        }
    }

    /// Runs `transition` as ``change(_:)`` does, then drops what it says, after the lock.
    func changeDropping(_ transition: (inout State) -> Dropping) {
        carryOut(change(transition))
    }

    /// What a change of registrations leaves to drop after the lock, by the one rule for every
    /// reset, `register` and `pop()`: what was made from a registration that goes, goes with it.
    struct Dropping {
        /// A manager whose caches this one uses, all of whose instances go.
        var sharedCaches: ContainerManager?
        /// The factory whose instances go, as `cached` and `singletons` say: one factory's
        /// reset or registration, kept apart from `keys` so that it takes no array.
        var key: FactoryKey?
        /// The factories whose instances go, the same way: a container's reset, `pop()`.
        var keys: [FactoryKey] = []
        /// Whether their instances in the caches this manager uses go.
        var cached = false
        /// Whether their singletons go, with (`resetsDependents`) what was built from them.
        var singletons = false
        var containerType: ObjectIdentifier?

        /// Calls `body` with each factory whose instances go.
        func forEachKey(_ body: (FactoryKey) -> Void) {
            keys.forEach(body)
            key.map(body)
        }
    }

    /// Drops what `dropping` says: the one place the rule for resets is carried out.
    func carryOut(_ dropping: Dropping) {
        dropping.sharedCaches?.state.withLock { $0.instances.removeAll() }
        // What `resetsDependents` drops with the singletons: all that was built from them.
        let dependents = dropping.singletons ? dependents(of: dropping) : []
        if dropping.cached || !dependents.isEmpty {
            withCaches { table in
                if dropping.cached {
                    dropping.forEachKey { table.removeInstances(of: $0, owner: nil) }
                }
                dependents.forEach { table.removeInstances(of: $0, owner: nil) }
            }
        }
        guard dropping.singletons, let containerType = dropping.containerType else { return }
        realm.instances.withLock { table in
            dropping.forEachKey { table.removeInstances(of: $0, owner: containerType) }
            dependents.forEach { table.removeInstances(of: $0, owner: containerType) }
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
    /// Forgets what `options` says, and returns what goes with it after the lock: the shared
    /// caches' instances, and the singletons of the factories whose registered factory,
    /// modifiers or contexts went.
    mutating func reset(_ options: FactoryResetOptions) -> ContainerManager.Dropping {
        var dropping = ContainerManager.Dropping(containerType: containerType)
        switch options {
        case .none:
            break
        case .all:
            (dropping.keys, dropping.singletons) = (Array(registrations.keys), true)
            seldomUsed?.madeByContext.removeAll()
            removeAllRegistrations()
            instances.removeAll()
            dropping.sharedCaches = cacheOwner
            // A child never runs autoRegister(): its parent has.
            isAutoRegistered = parent != nil
        case .registration:
            dropping.keys = registrations.filter { !$0.value.hasOnlyContexts }.map(\.key)
            dropping.singletons = true
            registrations.keys.forEach { removeFactory(for: $0) }
            isAutoRegistered = parent != nil
        case .context:
            let registrations = registrations
            dropping.keys = takeMadeByContext { registrations[$0]?.contexts.isEmpty == false }
            dropping.singletons = true
            registrations.keys.forEach { removeContexts(for: $0) }
        case .scope:
            instances.removeAll()
            dropping.sharedCaches = cacheOwner
        }
        return dropping
    }

    /// Forgets what `options` says for the factory `key` of a container of `containerType`
    /// (a child's reset never reaches its parent), and returns what goes with it.
    mutating func reset(
        _ key: FactoryKey, _ options: FactoryResetOptions, containerType: ObjectIdentifier
    ) -> ContainerManager.Dropping {
        self.containerType = self.containerType ?? containerType
        let registered = registrations[key]
        let hadFactory = registered.map { !$0.hasOnlyContexts } ?? false
        let contextMade =
            (options == .context || options == .all) && registered?.contexts.isEmpty == false
            && seldomUsed?.madeByContext.remove(key) != nil
        var dropping = ContainerManager.Dropping(key: key, containerType: containerType)
        switch options {
        case .none:
            break
        case .scope:
            (dropping.cached, dropping.singletons) = (true, true)
        case .all:
            // A collection's contributions are its contributors' to remove.
            changeRegistration(for: key) { $0 = .init(.init(contributions: $0.contributions)) }
            (dropping.cached, dropping.singletons) = (true, true)
        case .registration:
            removeFactory(for: key)
            dropping.singletons = hadFactory
        case .context:
            removeContexts(for: key)
            dropping.singletons = contextMade
        }
        return dropping
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

    /// Puts back what the last `push()` saved; returns the singletons that go: those of the
    /// factories whose registrations changed.
    mutating func pop() -> ContainerManager.Dropping {
        guard let snapshot = seldom.snapshots.popLast() else { return .init() }
        let changed = Set(registrations.keys).union(snapshot.registrations.keys).filter {
            registrations[$0] !== snapshot.registrations[$0]
        }
        restore(snapshot.registrations)
        instances.restore(snapshot.instances)
        return .init(keys: Array(changed), singletons: true, containerType: containerType)
    }
}
