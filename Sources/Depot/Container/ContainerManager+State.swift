import Atomics

extension ContainerManager {
    /// Everything a manager guards with its lock. What a change lets go of (instances,
    /// registered closures, containers) is released after the lock (see ``DropsValues``).
    struct State: DropsValues {
        var registrations = [FactoryKey: ContainerManager.Registration]() {
            didSet {
                if registrations.isEmpty {
                    registeredKeys = 0
                }
                updatePlain(advancingVersionBy: ContainerManager.Flags.versionUnit)
            }
        }
        var instances = InstanceTable()
        var isAutoRegistered = false {
            didSet { updatePlain() }
        }
        /// The type of the container, learnt on its first use: for the cache inventory's
        /// singletons.
        var containerType: ObjectIdentifier?
        var isAutoRegistering = false
        var defaultScope: Scope? {
            didSet { updatePlain() }
        }
        var trace = false {
            didSet { updateIsObserved() }
        }
        var isRecordingDependencies = false {
            didSet { updateIsObserved() }
        }
        var logger: (String) -> Void = { print($0) }
        var promiseTriggersError = FactoryContext.isDebugBuild
        var decorator: ((Any) -> Void)? {
            didSet { updateIsObserved() }
        }
        /// Whether a resolution must be traced, recorded or passed to the decorator: one flag,
        /// so a plain hit tests one byte for all three.
        private(set) var isObserved = false
        var clock = Clock.monotonic
        /// What few containers ever use, apart: made on first use, so that making and
        /// dropping a container (one per request) does not make and drop these too.
        var seldomUsed: SeldomUsed?
        /// Set by `useScope(from:)`: the manager whose per-container caches this one uses.
        var cacheOwner: ContainerManager? {
            didSet { updatePlain() }
        }
        /// Set by `makeChild()`: the container that resolves every factory this one has not
        /// registered itself.
        var parent: (any ManagedContainer)? {
            didSet { updatePlain() }
        }
        /// The singleton realm chosen before the manager's first use (the isolated one current
        /// when it was made), and the one it bound (see `realm`, `bind(_:)`).
        var isolatedRealm: SingletonRealm?
        /// Whether the container is a lifetime scope (`newLifetimeScope()`), for captive checks.
        var isLifetimeScope = false {
            didSet { updatePlain() }
        }
        var reportsShortLivedCaptives = false {
            didSet { updatePlain() }
        }
        /// The manager's `flags`, which resolves read without the lock.
        let flags: ManagedAtomic<UInt64>

        /// What few containers ever use; made when first asked for, under the lock.
        var seldom: SeldomUsed {
            mutating get {
                if let seldomUsed { return seldomUsed }
                let made = SeldomUsed()
                seldomUsed = made
                return made
            }
        }

        /// Kept with the instance table's, which drops most.
        var dropped: [Any] {
            get { instances.dropped }
            set { instances.dropped = newValue }
        }
    }

    /// The part of a manager's state that few containers ever use. A class, changed in place
    /// through ``State/seldom``, under the manager's lock like the rest of the state.
    final class SeldomUsed {
        /// Serialises `autoRegister()`, once it has been needed (see `autoRegisterIfNeeded`).
        var autoRegistrationGate: Mutex?
        var dependencies = DependencyGraph()
        var snapshots: [Snapshot] = []
        /// The factories already warned about, so each warning is logged once.
        var warned: Set<FactoryKey> = []
        /// The (owner, dependency) pairs already reported as captive.
        var warnedCaptives: Set<String> = []
    }

    /// What `push()` saves.
    struct Snapshot {
        let registrations: [FactoryKey: ContainerManager.Registration]
        let instances:
            (cells: [InstanceKey: InstanceTable.Cell], disposals: [InstanceKey: Disposal])
    }
}

extension ContainerManager.State {
    mutating func updateIsObserved() {
        isObserved = trace || isRecordingDependencies || decorator != nil
        updatePlain()
    }

    /// Writes whether the container is plain: auto-registered, with no observer, parent, shared
    /// caches or default scope, and no captive check of a `.unique`, `.graph` or `.cached`
    /// factory; and the filter of its registered keys. Then every factory of it that is not
    /// registered, declared `.unique`, `.graph`, `.cached` or `.singleton` (or with no scope),
    /// with none of the settings a factory's `Options` hold, resolves as `prepare` would have
    /// it: a `.cached` or `.singleton` one finds its kept instance with one look, and a miss
    /// runs its declared closure with the scope's plain plan. A resolve that reads the flags
    /// just before a change resolves as it would have just before it.
    ///
    /// A change to the registrations advances their version in the same write: a resolve never
    /// reads the new version with the old flag, which would let its plain plan outlive the
    /// change (see `ContainerManager.isCurrent(_:)`). A key's filter bit is set before then.
    private mutating func updatePlain(advancingVersionBy increment: UInt64 = 0) {
        typealias Flags = ContainerManager.Flags
        let isPlain =
            isAutoRegistered && !isObserved && parent == nil && cacheOwner == nil
            && defaultScope == nil && !checksCaptive(in: Scope.unique)
            && !checksCaptive(in: Scope.cached)
        setFlags(Flags.plain, to: isPlain ? Flags.plain : 0, adding: increment)
    }

    /// A filter of the registered keys, kept in `flags` alone: the `filterBit` of every key in
    /// `registrations` is set (set before the key goes in, and cleared only when all are gone).
    /// A factory whose bit is clear has no registration, so a plain container resolves it
    /// without looking for one (see `ContainerManager.plainness(for:)`).
    var registeredKeys: UInt64 {
        get { flags.load(ordering: .relaxed) & ContainerManager.Flags.registeredKeys }
        nonmutating set { setFlags(ContainerManager.Flags.registeredKeys, to: newValue) }
    }

    /// Sets the bits of `flags` that `mask` selects to `value`, and adds `increment` to the
    /// version above them. Every write is under the lock, so this read and the write after it
    /// see no other.
    func setFlags(_ mask: UInt64, to value: UInt64, adding increment: UInt64 = 0) {
        let others = flags.load(ordering: .relaxed) & ~mask
        flags.store((others &+ increment) | value, ordering: .releasing)
    }

    /// Replaces the registration for `key` with a changed copy; an empty one is removed.
    mutating func changeRegistration(
        for key: FactoryKey, _ change: (inout ContainerManager.Registration.Fields) -> Void
    ) {
        var fields = registrations[key]?.fields ?? .init()
        change(&fields)
        registeredKeys |= key.filterBit
        let replaced =
            fields.isEmpty
            ? registrations.removeValue(forKey: key)
            : registrations.updateValue(ContainerManager.Registration(fields), forKey: key)
        if let replaced {
            // Its closures may hold the last reference to what they captured.
            drop(replaced)
        }
    }

    /// Forgets every registration.
    mutating func removeAllRegistrations() {
        drop(registrations)
        registrations.removeAll()
    }

    /// Forgets the replacement factory and modifiers registered for `key`, keeping its contexts.
    mutating func removeFactory(for key: FactoryKey) {
        changeRegistration(for: key) { fields in
            fields = .init(
                contexts: fields.contexts, contextsRegisteredOnce: fields.contextsRegisteredOnce)
        }
    }

    /// Forgets the contexts registered for `key`.
    mutating func removeContexts(for key: FactoryKey) {
        changeRegistration(for: key) { $0.contexts = [:] }
    }
}

// The changes `reset(options:)`, `push()` and `pop()` make, under the manager's lock.
extension ContainerManager.State {
    /// Forgets what `options` says. Returns the manager whose caches this one uses
    /// (`useScope(from:)`), if they must be emptied too: under their own lock, after this one.
    mutating func reset(_ options: FactoryResetOptions) -> ContainerManager? {
        switch options {
        case .none:
            return nil
        case .all:
            removeAllRegistrations()
            instances.removeAll()
            // A child never runs autoRegister(): its parent has.
            isAutoRegistered = parent != nil
        case .registration:
            for key in registrations.keys {
                removeFactory(for: key)
            }
            isAutoRegistered = parent != nil
        case .context:
            for key in registrations.keys {
                removeContexts(for: key)
            }
        case .scope:
            instances.removeAll()
        }
        return options == .all || options == .scope ? cacheOwner : nil
    }

    /// Saves the registrations and kept instances; copies references, releases nothing.
    mutating func push() {
        seldom.snapshots.append(
            ContainerManager.Snapshot(
                registrations: registrations, instances: instances.snapshot))
    }

    /// Puts back what the last `push()` saved; what it replaces is dropped. Returns the keys
    /// whose registrations changed, with the container's type, so that the singletons made from
    /// what the snapshot replaces go too (after this lock: they live in the singleton realm).
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
