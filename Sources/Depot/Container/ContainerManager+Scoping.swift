extension ContainerManager {
    /// Makes this (new) manager's container a child of `parent`, with its settings.
    func becomeChild(of parent: any ManagedContainer) {
        let inherited = parent.manager.inheritance(autoRegistering: parent)
        let realm = parent.manager.realm
        change { state in
            state.settingsBox = inherited.settings
            state.parent = parent
            state.isAutoRegistered = true
            state.bind(realm)
        }
    }

    /// What a lifetime scope takes, after `container`'s `autoRegister()` has run: under one
    /// lock when it has, as nearly always.
    func inheritance(autoRegistering container: any ManagedContainer)
        -> ContainerManager.State.Inheritance
    {
        let ready = state.withLock { state in
            state.isAutoRegistered && state.containerType != nil ? state.inheritance : nil
        }
        if let ready { return ready }
        autoRegisterIfNeeded(container)
        return inheritance
    }

    /// Takes `inherited` registrations, parent and settings (`settings` if given), and binds
    /// `realm`: a lifetime scope's, or a validation's copy's.
    func inherit(
        _ inherited: ContainerManager.State.Inheritance, settings: ContainerManager.Settings? = nil,
        realm: SingletonRealm, isLifetimeScope: Bool
    ) {
        change { state in
            state.inherit(
                inherited, settings: settings, realm: realm, isLifetimeScope: isLifetimeScope)
        }
    }

    /// What a lifetime scope or child takes: its settings and registrations, not its caches.
    var inheritance: ContainerManager.State.Inheritance {
        state.withLock { $0.inheritance }
    }

    /// Uses `other`'s per-container caches (or those it uses) from now on.
    func useCaches(of other: ContainerManager) {
        let owner = other.cacheOwner
        let hadInstances = change { state -> Bool in
            let hadInstances = !state.instances.isEmpty
            state.instances.removeAll()
            state.drop(state.cacheOwner)
            state.cacheOwner = owner === self ? nil : owner
            return hadInstances
        }
        assert(
            !hadInstances,
            "Depot: useScope(from:) on a container that had cached instances; they were dropped. "
                + "Call it right after making the container, before anything is resolved.")
    }
}

extension ContainerManager.State {
    /// What a lifetime scope or child container takes from its container.
    var inheritance: Inheritance {
        Inheritance(
            registrations: registrations, registeredKeys: registeredKeys, parent: parent,
            settings: settingsBox)
    }

    /// What a lifetime scope or child container takes from its container.
    struct Inheritance {
        let registrations: HashTable<FactoryKey, ContainerManager.Registration>
        let registeredKeys: UInt64
        let parent: (any ManagedContainer)?
        let settings: ContainerManager.SettingsBox
    }
}

extension ContainerManager {
    /// A copy of `original` for a validation: its registrations, contexts, parent and settings
    /// (with tracing off, logging to nowhere and no watcher), empty caches, and singletons in
    /// `realm`.
    convenience init(validating original: ContainerManager, realm: SingletonRealm) {
        self.init(realm: realm, isValidationCopy: true)
        let inherited = original.inheritance
        var settings = inherited.settings.value
        (settings.trace, settings.logger, settings.watcher) = (false, { _ in }, nil)
        inherit(
            inherited, settings: settings, realm: realm,
            isLifetimeScope: original.state.withLock { $0.isLifetimeScope })
    }
}

// Where a container's singletons live.
extension ContainerManager {
    /// Where this container's singletons live: the realm current when the manager was made or
    /// first needed one, bound then for good (a lifetime scope or child binds its container's).
    @usableFromInline
    var realm: SingletonRealm {
        switch flags.load() & Flags.realm {
        case Flags.processRealm:
            return processRealm
        case Flags.isolatedRealm:
            return state.withLock { $0.isolatedRealm! }
        default:
            return change { state in
                let realm = state.isolatedRealm ?? SingletonRealm.current
                state.bind(realm)
                return realm
            }
        }
    }

    /// The bits of ``flags``.
    @usableFromInline
    enum Flags {
        /// Set while the container is plain but for its registrations: auto-registered, with no
        /// observer, parent, shared caches or default scope (see `State.word`).
        @usableFromInline static let plain: UInt64 = 1
        /// Which realm the manager bound: none yet, the process's, or an isolated one.
        static let realm: UInt64 = 6
        static let processRealm: UInt64 = 2
        static let isolatedRealm: UInt64 = 4
        /// Bits 3 to 34: the filter of registered keys (see `State.registeredKeys`).
        @usableFromInline static let registeredKeys: UInt64 = 0xFFFF_FFFF << 3
        @usableFromInline static let firstKeyBit: UInt64 = 1 << 3
        /// Set for a lifetime scope, whose table is in no scope's holders (`tracksHolders`).
        static let tracksNoHolders: UInt64 = 1 << 35
        /// Set while a resolve may be captive (`State.checksCaptive(in:)`, debug builds only):
        /// the plain path checks it too.
        @usableFromInline static let checksCaptive: UInt64 = 1 << 36
        /// The bits above: the version of the registrations (`State.version`), which wraps
        /// after 2^27 changes, more than any plan outlives.
        @usableFromInline static let version: UInt64 = ~((1 << versionShift) - 1)
        static let versionShift: UInt64 = 37
    }

    /// What a plain resolve found: the kept cell, if any, or that `prepare` decides (a factory
    /// that may be registered and has no kept instance, or whose registration changes a hit).
    @usableFromInline
    enum PlainLookup {
        case found(InstanceTable.Cell?)
        case registered
    }

    /// The cell the singleton realm keeps for the plain `.singleton` factory `key`, if any.
    @usableFromInline
    func plainSingletonCell(
        for key: FactoryKey, containerType: ObjectIdentifier, checksRegistration: Bool
    ) -> PlainLookup {
        let instanceKey = InstanceKey(factory: key, owner: containerType, parameter: nil)
        if checksRegistration {
            return registeredLookup(for: key) {
                singletonCell(for: instanceKey, in: singletonScope)
            }
        }
        return .found(singletonCell(for: instanceKey, in: singletonScope))
    }

    /// The cell this container's singleton realm keeps for `key` in `scope`, if any.
    // Inlined, with the realm's look-up, so that a plain singleton hit is one function.
    @inline(__always)
    func singletonCell(for key: InstanceKey, in scope: Scope) -> InstanceTable.Cell? {
        // The process's realm is read as the `let` it is, not retained through `realm`.
        if flags.load() & Flags.realm == Flags.processRealm {
            return processRealm.cell(for: key, in: scope)
        }
        return realm.cell(for: key, in: scope)
    }

    /// The cell this container keeps for the plain `.cached` factory `key`, if any.
    @usableFromInline
    func plainCachedCell(for key: FactoryKey, checksRegistration: Bool) -> PlainLookup {
        if checksRegistration { return registeredCachedCell(for: key) }
        let instanceKey = InstanceKey(factory: key, owner: nil, parameter: nil)
        // A function, not a closure, so that it can be inlined: the optimiser leaves a closure
        // this large (the table's probe is inlined in it) as a call of its own.
        @inline(__always)
        func look(in state: State) -> InstanceTable.Cell? {
            state.instances.cell(for: instanceKey, in: cachedScope)
        }
        return .found(state.reading(look))
    }

    /// ``plainCachedCell(for:checksRegistration:)`` where the factory may be registered.
    @inline(never)
    private func registeredCachedCell(for key: FactoryKey) -> PlainLookup {
        let instanceKey = InstanceKey(factory: key, owner: nil, parameter: nil)
        return registeredLookup(for: key) { cell(for: instanceKey, in: cachedScope) }
    }

    /// A plain lookup of a factory that may be registered: the cell `look` reads, unless the
    /// registration changes a hit. A miss takes `prepare`, which makes the plan with whatever
    /// is registered.
    @inline(never)
    private func registeredLookup(for key: FactoryKey, look: () -> InstanceTable.Cell?)
        -> PlainLookup
    {
        guard let cell = look() else { return .registered }
        let registered = state.withLock { $0.registrations[key] }
        return registered?.changesPlainHit == true ? .registered : .found(cell)
    }

    /// Whether anything is registered for `key`: a closure, contexts or modifiers.
    @usableFromInline
    func hasRegistration(for key: FactoryKey) -> Bool {
        state.withLock { $0.registrations.contains(key) }
    }
}

extension ContainerManager: InstanceOwner {
    @usableFromInline
    func withInstances(_ body: (inout InstanceTable) -> Void) {
        state.withLock { body(&$0.instances) }
    }

    /// The cell kept for `key` in `scope`, if any: a hit's lookup.
    func cell(for key: InstanceKey, in scope: Scope) -> InstanceTable.Cell? {
        state.reading { $0.instances.cell(for: key, in: scope) }
    }

    @usableFromInline
    func noteHolding(_ scope: Scope) {
        scope.track(self)
    }
}
