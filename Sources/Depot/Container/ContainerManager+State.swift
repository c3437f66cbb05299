import Atomics

extension ContainerManager {
    /// Everything a manager guards with its lock.
    struct State: DropsValues {
        var registrations = HashTable<FactoryKey, ContainerManager.Registration>() {
            didSet {
                if registrations.isEmpty { registeredKeys = 0 }
                updatePlain(advancingVersionBy: ContainerManager.Flags.versionUnit)
            }
        }
        var instances = InstanceTable()
        var isAutoRegistered = false {
            didSet { updatePlain() }
        }
        /// The container's type, learnt on first use, for the cache inventory's singletons.
        var containerType: ObjectIdentifier?
        var isAutoRegistering = false
        /// The settings, shared with the lifetime scopes and children made since; see ``settings``.
        var settingsBox = SettingsBox.standard {
            didSet { updateIsObserved() }
        }
        var isRecordingDependencies = false {
            didSet { updateIsObserved() }
        }
        /// Whether a resolution must be traced, recorded or passed to the decorator.
        private(set) var isObserved = false
        /// Whether a resolution is recorded: in the dependency graph, or as what
        /// `resetsDependents` drops.
        var records: Bool { isRecordingDependencies || settings.resetsDependents }
        /// What few containers use, made on first use (see ``seldom``).
        var seldomUsed: SeldomUsed?
        /// Set by `useScope(from:)`: the manager whose per-container caches this one uses.
        var cacheOwner: ContainerManager? {
            didSet { updatePlain() }
        }
        /// Set by `makeChild()`: resolves every factory this one has not registered.
        var parent: (any ManagedContainer)? {
            didSet { updatePlain() }
        }
        /// The singleton realm chosen before first use, then the one bound (`bind(_:)`).
        var isolatedRealm: SingletonRealm?
        /// Whether the container is a lifetime scope (`newLifetimeScope()`), for captive checks.
        var isLifetimeScope = false {
            didSet { updatePlain() }
        }
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
    }

    /// Settings that never change, so that a lifetime scope takes them as one reference.
    // @unchecked Sendable: immutable; its closures are called from whatever thread resolves or
    // logs, as a manager's settings always are (see `logger`).
    final class SettingsBox: @unchecked Sendable {
        /// The settings of a new container.
        static let standard = SettingsBox(Settings())

        let value: Settings
        init(_ value: Settings) { self.value = value }
    }

    /// What `push()` saves.
    struct Snapshot {
        let registrations: HashTable<FactoryKey, ContainerManager.Registration>
        let instances: InstanceTable.Snapshot
    }
}

extension ContainerManager.State {
    mutating func updateIsObserved() {
        isObserved = settings.trace || records || settings.decorator != nil
        updatePlain()
    }

    /// Writes whether the container is plain: auto-registered, with no observer, parent, shared
    /// caches or default scope. Then a factory it has not registered resolves by its scope's
    /// plain plan (`plainResolve()`), checked for captive owners where `prepare`'s plan would
    /// be (a debug build's lifetime scope). A change to the registrations advances their
    /// version in the same write, so no resolve reads the new version with the old flag.
    private mutating func updatePlain(advancingVersionBy increment: UInt64 = 0) {
        typealias Flags = ContainerManager.Flags
        let isPlain =
            isAutoRegistered && !isObserved && parent == nil && cacheOwner == nil
            && settings.defaultScope == nil
        // The plain scopes that can be captive: `.unique` and `.graph` alike, and `.cached`.
        let checksCaptive =
            FactoryContext.isDebugBuild
            && (checksCaptive(in: Scope.unique) || checksCaptive(in: Scope.cached))
        setFlags(
            Flags.plain | Flags.checksCaptive,
            to: (isPlain ? Flags.plain : 0) | (checksCaptive ? Flags.checksCaptive : 0),
            adding: increment)
    }

    /// A filter of the registered keys, kept in `flags`: every registered key's `filterBit` is
    /// set (before the key goes in; cleared only when all are gone), so a clear bit means none.
    var registeredKeys: UInt64 {
        get { flags.loadRelaxed() & ContainerManager.Flags.registeredKeys }
        nonmutating set { setFlags(ContainerManager.Flags.registeredKeys, to: newValue) }
    }

    /// Sets the bits of `flags` that `mask` selects to `value`, and adds `increment`; under the
    /// lock, so no other write comes between the load and the store.
    func setFlags(_ mask: UInt64, to value: UInt64, adding increment: UInt64 = 0) {
        let others = flags.loadRelaxed() & ~mask
        flags.store((others &+ increment) | value)
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
                : registrations.updateValue(ContainerManager.Registration(fields), forKey: key))
    }

    /// Forgets every registration.
    mutating func removeAllRegistrations() {
        drop(registrations)
        registrations.removeAll()
    }

    /// Forgets the replacement factory and modifiers registered for `key`, keeping its contexts
    /// and, for a collection, its contributions.
    mutating func removeFactory(for key: FactoryKey) {
        changeRegistration(for: key) { fields in
            fields = .init(
                .init(
                    contexts: fields.contexts,
                    contextsRegisteredOnce: fields.contextsRegisteredOnce,
                    contributions: fields.contributions))
        }
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
}

extension DropsValues {
    /// Keeps `value`, if any, alive until the lock is let go.
    mutating func drop(_ value: Any?) {
        if let value { dropped.append(value) }
    }
}
