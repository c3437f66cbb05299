extension ContainerManager {
    /// Everything a manager guards with its lock: a state machine. What resolves read without
    /// the lock is derived from it (``word``) and published in ``flags`` once, at the end of
    /// each transition that `ContainerManager.change(_:)` runs; a debug build checks, at the
    /// end of every lock section, that no change went unpublished.
    struct State: DropsValues {
        /// Changed only by the transitions in this file, each advancing ``version``.
        private(set) var registrations = HashTable<FactoryKey, ContainerManager.Registration>()
        /// A filter of the registered keys: every registered key's `filterBit` is set, from the
        /// change that registers it until every registration is gone, so a clear bit means none.
        private(set) var registeredKeys: UInt64 = 0
        /// How many times the registrations have changed (see ``Flags/version``).
        private(set) var version: UInt64 = 0
        var instances = InstanceTable()
        var isAutoRegistered = false
        /// The container's type, learnt on first use, for the cache inventory's singletons.
        var containerType: ObjectIdentifier?
        var isAutoRegistering = false
        /// The settings, shared with the lifetime scopes and children made since; see ``settings``.
        var settingsBox = SettingsBox.standard
        var isRecordingDependencies = false
        /// Whether a resolution must be traced, recorded, watched or passed to the decorator.
        var isObserved: Bool { isRecordingDependencies || settingsBox.observes }
        /// Whether a resolution is recorded (in the dependency graph, or as what
        /// `resetsDependents` drops) or watched (``Settings/watcher``).
        var records: Bool { isRecordingDependencies || settingsBox.records }
        /// What few containers use, made on first use (see ``seldom``).
        var seldomUsed: SeldomUsed?
        /// Set by `useScope(from:)`: the manager whose per-container caches this one uses.
        var cacheOwner: ContainerManager?
        /// Set by `makeChild()`: resolves every factory this one has not registered.
        var parent: (any ManagedContainer)?
        /// The singleton realm chosen before first use, then the one bound (``bind(_:)``).
        var isolatedRealm: SingletonRealm?
        private(set) var isRealmBound = false
        /// Whether the container is a lifetime scope (`newLifetimeScope()`), for captive checks.
        var isLifetimeScope = false
        /// The manager's `flags`, which resolves read without the lock: the word beside this
        /// state in its `Locked`, valid as long as the state is there.
        let flags: AtomicWord

        /// What few containers ever use; made when first asked for, under the lock.
        var seldom: SeldomUsed {
            mutating get {
                if let seldomUsed { return seldomUsed }
                let made = SeldomUsed()
                seldomUsed = made
                return made
            }
        }

        /// The settings; a change makes a new box, and the old one is released after the lock.
        var settings: Settings {
            get { settingsBox.value }
            set {
                drop(settingsBox)
                settingsBox = SettingsBox(newValue)
            }
        }

        /// Kept with the instance table's, which drops most.
        var dropped: [Any] {
            get { instances.dropped }
            set { instances.dropped = newValue }
        }
    }

    /// The part of a manager's state few containers use, under the same lock.
    final class SeldomUsed {
        /// Serialises `autoRegister()`, once it has been needed (see `autoRegisterIfNeeded`).
        var autoRegistrationGate: Mutex?
        var dependencies = DependencyGraph()
        /// The factories resolved while recording, for `validate()` (see `keepForValidation`).
        var resolved: [FactoryKey: Validation.Declaration] = [:]
        var snapshots: [Snapshot] = []
        /// The factories already warned about, so each warning is logged once.
        var warned: Set<FactoryKey> = []
        /// What was warned about once already: captive (owner, dependency) pairs and isolation
        /// breaches (factory and place).
        var warnedOnce: Set<String> = []
        /// The factories of this container built from each factory, while `resetsDependents`.
        var dependents: [FactoryKey: Set<FactoryKey>] = [:]
        /// The factories a context override (`onTest`...) has made an instance of: a reset
        /// that removes their contexts drops their singletons.
        var madeByContext: Set<FactoryKey> = []
    }

    /// What `push()` saves.
    struct Snapshot {
        let registrations: HashTable<FactoryKey, ContainerManager.Registration>
        let instances: InstanceTable.Snapshot
    }
}

extension ContainerManager.State {
    /// What resolves read without the lock, as this state says (see ``ContainerManager/Flags``).
    var word: UInt64 {
        typealias Flags = ContainerManager.Flags
        var word = version << Flags.versionShift | registeredKeys
        // Plain: a factory it has not registered resolves by its scope's plain plan
        // (`plainDecision()`), checked for captive owners where `prepare`'s plan would be.
        if isAutoRegistered, !isObserved, parent == nil, cacheOwner == nil,
            settings.defaultScope == nil
        {
            word |= Flags.plain
        }
        // The plain scopes that can be captive: `.unique` and `.graph` alike, and `.cached`.
        if FactoryContext.isDebugBuild,
            checksCaptive(in: Scope.unique) || checksCaptive(in: Scope.cached)
        {
            word |= Flags.checksCaptive
        }
        if isLifetimeScope { word |= Flags.tracksNoHolders }
        if isRealmBound {
            word |=
                isolatedRealm === SingletonRealm.process ? Flags.processRealm : Flags.isolatedRealm
        }
        return word
    }

    /// Ends a transition: publishes the word it derives, in one store, so no resolve reads a
    /// new version with an old flag.
    func publish() {
        flags.store(word)
    }

    /// Whether every change is published: checked at the end of each lock section, in debug.
    var isPublished: Bool { flags.loadRelaxed() == word }

    /// Binds the manager to `realm` for good.
    mutating func bind(_ realm: SingletonRealm) {
        isolatedRealm = realm
        isRealmBound = true
    }

    /// Notes a change of the registrations: a new version, and a filter emptied with them.
    private mutating func registrationsChanged() {
        version &+= 1
        if registrations.isEmpty { registeredKeys = 0 }
    }

    /// Takes `inherited`'s registrations, parent and settings (`settings` if given), binds
    /// `realm`, and counts as auto-registered (its container has run `autoRegister()`).
    mutating func inherit(
        _ inherited: Inheritance, settings: ContainerManager.Settings?, realm: SingletonRealm,
        isLifetimeScope: Bool
    ) {
        settingsBox = settings.map(ContainerManager.SettingsBox.init) ?? inherited.settings
        registrations = inherited.registrations
        registeredKeys = inherited.registeredKeys
        registrationsChanged()
        parent = inherited.parent
        isAutoRegistered = true
        self.isLifetimeScope = isLifetimeScope
        instances.tracksHolders = !isLifetimeScope
        bind(realm)
    }

    /// Puts back registrations saved by `push()`.
    mutating func restore(_ saved: HashTable<FactoryKey, ContainerManager.Registration>) {
        drop(registrations)
        registrations = saved
        registeredKeys = saved.keys.reduce(0) { $0 | $1.filterBit }
        registrationsChanged()
    }

    /// Replaces the registration for `key` with a changed copy; an empty one is removed.
    mutating func changeRegistration(
        for key: FactoryKey, _ change: (inout ContainerManager.Registration.Fields) -> Void
    ) {
        var fields = registrations[key]?.fields ?? .init()
        change(&fields)
        registeredKeys |= key.filterBit
        // The registration replaced: its closures may hold the last reference to what they
        // captured.
        drop(
            fields.isEmpty
                ? registrations.removeValue(forKey: key)
                : registrations.updateValue(
                    ContainerManager.Registration(fields, isAutoRegistered: isAutoRegistering),
                    forKey: key))
        registrationsChanged()
    }

    /// Forgets every registration.
    mutating func removeAllRegistrations() {
        drop(registrations)
        registrations.removeAll()
        registrationsChanged()
    }

    /// Forgets the replacement factory and modifiers registered for `key`, keeping its contexts,
    /// its decorators and, for a collection, its contributions.
    mutating func removeFactory(for key: FactoryKey) {
        changeRegistration(for: key) { $0 = .init($0.seldom.withoutFactory) }
    }

    /// Forgets the contexts registered for `key`.
    mutating func removeContexts(for key: FactoryKey) {
        changeRegistration(for: key) { $0.seldom.contexts = [:] }
    }
}

/// A state whose changes may let go of instances, closures or containers, whose last release can
/// run user code (a `deinit` that resolves from the same container): a change collects them in
/// ``dropped``, and `withLock` releases them after the lock is let go.
protocol DropsValues {
    /// What changes let go of since `withLock` last released them.
    var dropped: [Any] { get set }
    /// Whether what the state publishes to readers without the lock is up to date: a debug
    /// build checks it at the end of every lock section.
    var isPublished: Bool { get }
}

extension DropsValues {
    var isPublished: Bool { true }

    /// Keeps `value`, if any, alive until the lock is let go.
    mutating func drop(_ value: Any?) {
        if let value { dropped.append(value) }
    }
}
