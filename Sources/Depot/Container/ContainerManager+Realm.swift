import Atomics

// Where a container's singletons live.
extension ContainerManager {
    /// Where this container's singletons live: an isolated realm current when the manager was
    /// made, or else the realm current when it first needed one; a lifetime scope or child
    /// takes its container's (see `becomeLifetimeScope(of:)`). Bound on first use, under the
    /// lock; the process's realm, which nearly every container outside tests binds, is then
    /// read without it.
    @usableFromInline
    var realm: SingletonRealm {
        switch realmBinding.load(ordering: .acquiring) {
        case RealmBinding.process:
            return SingletonRealm.process
        case RealmBinding.isolated:
            return state.withLock { $0.isolatedRealm! }
        default:
            return state.withLock { state in
                let realm = state.isolatedRealm ?? SingletonRealm.current
                state.isolatedRealm = realm
                realmBinding.store(
                    realm === SingletonRealm.process ? RealmBinding.process : RealmBinding.isolated,
                    ordering: .releasing)
                return realm
            }
        }
    }

    /// The values of `realmBinding`: which realm the manager bound, if it has.
    enum RealmBinding {
        static let unbound: UInt8 = 0
        static let process: UInt8 = 1
        /// An isolated realm, kept in the state's `isolatedRealm`.
        static let isolated: UInt8 = 2
    }

    /// The cell the singleton realm keeps for the plain `.singleton` factory `key` of a
    /// container of `containerType`, if any: what `prepare` would find for it in a plain
    /// container (see ``isPlain``), without taking this manager's lock.
    @usableFromInline
    func plainSingletonCell(for key: FactoryKey, containerType: ObjectIdentifier)
        -> InstanceTable.Cell?
    {
        let key = InstanceKey(factory: key, owner: containerType, parameter: nil)
        return realm.cell(for: key, in: Scope.Singleton.process)
    }

    /// The cell this container keeps for the plain `.cached` factory `key`, if any: what
    /// `prepare` would find for it in a plain container (see ``isPlain``), with one look in the
    /// table under the lock.
    @usableFromInline
    func plainCachedCell(for key: FactoryKey) -> InstanceTable.Cell? {
        cell(for: InstanceKey(factory: key, owner: nil, parameter: nil), in: Scope.cached)
    }
}
