import Atomics

// Where a container's singletons live.
extension ContainerManager {
    /// Where this container's singletons live: an isolated realm current when the manager was
    /// made, or else the realm current when it first needed one, bound then under the lock; a
    /// lifetime scope or child binds its container's as it is made (see
    /// `becomeLifetimeScope(of:)`). The process's realm, which nearly every container outside
    /// tests binds, is then read without the lock.
    @usableFromInline
    var realm: SingletonRealm {
        switch flags.load(ordering: .acquiring) & Flags.realm {
        case Flags.processRealm:
            return SingletonRealm.process
        case Flags.isolatedRealm:
            return state.withLock { $0.isolatedRealm! }
        default:
            return state.withLock { state in
                let realm = state.isolatedRealm ?? SingletonRealm.current
                state.bind(realm)
                return realm
            }
        }
    }

    /// The bits of ``flags``.
    enum Flags {
        /// Set while the container is plain.
        static let plain: UInt = 1
        /// Set while the container would be plain but for its registrations: a factory with
        /// none resolves as in a plain container, once a look under the lock has found none.
        static let plainUnlessRegistered: UInt = 8
        /// Which realm the manager bound: none yet, the process's, or an isolated one (kept in
        /// the state's `isolatedRealm`).
        static let realm: UInt = 6
        static let processRealm: UInt = 2
        static let isolatedRealm: UInt = 4
        /// The bits above: the version of the registrations, one `versionUnit` more with every
        /// change to them.
        static let version: UInt = ~15
        static let versionUnit: UInt = 16
    }

    /// What the look of a plain resolve found: the kept cell, if any, or a registration for
    /// the factory, which sends its resolve to `prepare`.
    @usableFromInline
    enum PlainLookup {
        case found(InstanceTable.Cell?)
        case registered
    }

    /// The cell the singleton realm keeps for the plain `.singleton` factory `key` of a
    /// container of `containerType`, if any: what `prepare` would find for it in a plain
    /// container (see ``plainness``). Takes this manager's lock only to look for a
    /// registration, when `checksRegistration`.
    @usableFromInline
    func plainSingletonCell(
        for key: FactoryKey, containerType: ObjectIdentifier, checksRegistration: Bool
    ) -> PlainLookup {
        if checksRegistration, hasRegistration(for: key) { return .registered }
        return .found(
            singletonCell(
                for: InstanceKey(factory: key, owner: containerType, parameter: nil),
                in: Scope.Singleton.process))
    }

    /// The cell this container's singleton realm keeps for `key` in `scope`, if any: the
    /// lookup of a singleton hit, with or without `prepare`.
    func singletonCell(for key: InstanceKey, in scope: Scope) -> InstanceTable.Cell? {
        // The process's realm, which nearly every container binds, is called as the `let` it
        // is: through `realm`, a computed property, it would be retained and released.
        if flags.load(ordering: .acquiring) & Flags.realm == Flags.processRealm {
            return SingletonRealm.process.cell(for: key, in: scope)
        }
        return realm.cell(for: key, in: scope)
    }

    /// The cell this container keeps for the plain `.cached` factory `key`, if any: what
    /// `prepare` would find for it in a plain container (see ``plainness``), with one look in the
    /// table under the lock, and one for a registration first when `checksRegistration`.
    @usableFromInline
    func plainCachedCell(for key: FactoryKey, checksRegistration: Bool) -> PlainLookup {
        let instanceKey = InstanceKey(factory: key, owner: nil, parameter: nil)
        return state.withLock { state in
            if checksRegistration, state.registrations[key] != nil { return .registered }
            return .found(state.instances.cell(for: instanceKey, in: Scope.cached))
        }
    }

    /// Whether anything is registered for `key`: a closure, contexts or modifiers.
    @usableFromInline
    func hasRegistration(for key: FactoryKey) -> Bool {
        state.withLock { $0.registrations[key] != nil }
    }
}

extension ContainerManager.State {
    /// Binds the manager to `realm` for good: `realm` then reads it, without the lock for the
    /// process's realm.
    mutating func bind(_ realm: SingletonRealm) {
        isolatedRealm = realm
        setFlags(
            ContainerManager.Flags.realm,
            to: realm === SingletonRealm.process
                ? ContainerManager.Flags.processRealm : ContainerManager.Flags.isolatedRealm)
    }
}
