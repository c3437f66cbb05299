internal import CDepotAtomics

// Where a container's singletons live, read by the hit path without a lock or a count.
extension ContainerManager {
    /// Where this container's singletons live: an isolated realm current when the manager was
    /// made, or else the realm current when it first needed one.
    @usableFromInline
    var realm: SingletonRealm {
        let address = depot_atomic_load(realmAddress)
        guard address != 0 else { return bindRealm() }
        // `State.realm` (or the template) holds it for as long as the manager lives.
        return Unmanaged<SingletonRealm>.fromOpaque(UnsafeRawPointer(bitPattern: UInt(address))!)
            .takeUnretainedValue()
    }

    /// Binds ``realm`` to `realm` (the current one by default), unless another thread just
    /// did: a lifetime scope or child takes its container's, wherever it is made.
    @discardableResult
    func bindRealm(to chosen: SingletonRealm? = nil) -> SingletonRealm {
        state.withLock { state in
            if let realm = state.realm ?? state.template?.realm { return realm }
            let realm = chosen ?? SingletonRealm.current
            state.realm = realm
            depot_atomic_store(
                realmAddress + 1, UInt64(UInt(bitPattern: realm.instances.generationPointer)))
            depot_atomic_store(realmAddress, UInt64(UInt(bitPattern: ObjectIdentifier(realm))))
            return realm
        }
    }

    /// Binds ``realm`` to `realm`, a template's, which keeps it: the realm's address goes in
    /// the side words, and no reference to it is counted (a write every thread's lifetime
    /// scopes would share). Only for a new manager no other thread has seen yet.
    @inline(__always)
    func bindRealm(_ realm: Unmanaged<SingletonRealm>) {
        realm._withUnsafeGuaranteedRef {
            depot_atomic_store(
                realmAddress + 1, UInt64(UInt(bitPattern: $0.instances.generationPointer)))
        }
        depot_atomic_store(realmAddress, UInt64(UInt(bitPattern: realm.toOpaque())))
    }

    /// The generation of ``realm``'s table, as the hit path reads it: two loads, no reference
    /// counted. A thread's hit cache remembers a singleton only after the realm was bound.
    @inline(__always)
    var realmGeneration: UInt64 {
        let address = depot_atomic_load(realmAddress + 1)
        guard address != 0 else { return realm.instances.generation }
        return depot_atomic_load(UnsafePointer(bitPattern: UInt(address))!)
    }
}
