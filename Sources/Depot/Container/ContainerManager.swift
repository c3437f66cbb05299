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

    /// How many validations run now, in the process, published in the word beside it (by
    /// `Validation.countRunning`): a global, alive as long as the process, so its word stays
    /// valid (see ``AtomicWord``). The count itself is the value: a `Locked` of nothing would
    /// have its value at its mutex's address, which ThreadSanitizer then sees raced.
    static let validationsRunning = Locked(0)

    /// The word of ``validationsRunning``, which a resolve reads here, through the manager it
    /// already holds, without the global's once-check.
    @usableFromInline let validations = ContainerManager.validationsRunning.word

    /// Whether a validation runs now: the one read a resolve makes when none does.
    @inlinable
    var isValidating: Bool { validations.loadRelaxed() != 0 }

    /// What resolves read without the lock (see ``Flags``); written only under the lock. The
    /// word beside `state`, in its allocation, which this manager keeps alive.
    @usableFromInline let flags: AtomicWord

    /// The globals a plain resolve reads, held here so that it reads them without their
    /// once-checks: the `.cached` scope, and the process's `.singleton` scope and realm, where
    /// a hit looks; the `.unique` and `.graph` scopes, whose plain plans a miss takes.
    let cachedScope: Scope = Scope.cached
    let singletonScope: Scope = Scope.Singleton.process
    let processRealm = SingletonRealm.process
    let uniqueScope: Scope = Scope.unique
    let graphScope: Scope = Scope.graph

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
    /// plan made with it then stands at that version. Out of line: only a resolve that raced a
    /// registration asks.
    @usableFromInline
    @inline(never)
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

extension ContainerManager {
    /// The settings a lifetime scope or child container takes from its container.
    struct Settings {
        var defaultScope: Scope?
        var trace = false
        var logger: (String) -> Void = { print($0) }
        var promiseTriggersError = FactoryContext.isDebugBuild
        var decorator: ((Any) -> Void)?
        var clock = Clock.monotonic
        var reportsShortLivedCaptives = false
        var stopsOnIsolationBreach = false
        var resetsDependents = false
        /// Sees every resolve (see ``ContainerManager/watcher``).
        var watcher: (@Sendable (WatchedResolve) -> Void)?
    }

    /// Settings that never change, so that a lifetime scope takes them as one reference.
    // @unchecked Sendable: immutable; its closures are called from whatever thread resolves or
    // logs, as a manager's settings always are (see `logger`).
    final class SettingsBox: @unchecked Sendable {
        /// The settings of a new container.
        static let standard = SettingsBox(Settings())

        let value: Settings
        /// Whether the settings have resolutions recorded (`resetsDependents`) or watched.
        let records: Bool
        /// Whether they have resolutions traced, recorded, watched or decorated.
        let observes: Bool

        init(_ value: Settings) {
            self.value = value
            records = value.resetsDependents || value.watcher != nil
            observes = records || value.trace || value.decorator != nil
        }
    }
}
