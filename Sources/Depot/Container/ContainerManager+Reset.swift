// The rule for resets, in one place: the transitions below return a `Dropping`, and
// `carryOut` drops what it names after the lock.
extension ContainerManager {
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
}

// What `resetsDependents` drops: the kept instances built from a factory that changed.
extension ContainerManager {
    /// The factories built from those `dropping` drops, and from those in turn, when
    /// ``resetsDependents`` is on: `carryOut` drops them too.
    func dependents(of dropping: Dropping) -> [FactoryKey] {
        state.withLock { state in
            guard state.settings.resetsDependents, let recorded = state.seldomUsed?.dependents
            else { return [] }
            var (found, pending) = (Set<FactoryKey>(), [FactoryKey]())
            dropping.forEachKey { pending.append($0) }
            while let key = pending.popLast() {
                for dependent in recorded[key] ?? [] where found.insert(dependent).inserted {
                    pending.append(dependent)
                }
            }
            return Array(found)
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
            // A collection's contributions and a factory's decorators are the modules' that
            // added them to remove.
            changeRegistration(for: key) {
                $0 = .init(.init(contributions: $0.contributions, decorations: $0.decorations))
            }
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

extension ContainerManager {
    /// Takes the disposals out and forgets every instance, under one lock, then runs them.
    func shutdown() async -> [DisposalError] {
        let disposals = state.withLock { state in
            let taken = state.instances.takeDisposals(of: nil)
            state.instances.removeAll()
            return taken
        }
        return await Disposal.run(disposals)
    }
}
