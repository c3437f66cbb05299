internal import CDepotAtomics

extension ContainerManager {
    /// Reads the registration and settings for a factory and looks for its kept instance: one
    /// lock and one hash lookup for a per-container hit, a second lock for a singleton. A plain
    /// hit of a strongly kept instance is remembered by the thread's ``HitCache``, so the next
    /// one (``beginHit(for:scope:)``) takes no lock; so is a plain `.unique` or `.graph`
    /// resolve, and, in a pristine lifetime scope, a plain caching factory (`.container`).
    ///
    /// Not generic, so a caller in another module runs it without creating type metadata.
    @usableFromInline
    func prepare(
        _ key: FactoryKey, scope declaredScope: Scope?, timeToLive declaredTimeToLive: Double?,
        isOnce: Bool, parameter: ParameterKey?, containerType: ObjectIdentifier,
        isInsideAutoRegistration: Bool
    ) -> Prepared {
        var processLookup: (key: InstanceKey, plan: Plan)?
        var sharedLookup: (owner: ContainerManager, key: InstanceKey, plan: Plan)?
        // Set when a plain hit of a strongly kept instance may be remembered by the thread's
        // hit cache: under which name and generation (`hitOrigin`).
        var remembered: (id: ObjectIdentifier, generation: UInt64)?
        // Reads only, and calls no user code: a custom scope's storage and the clock are left
        // to the creation path. The hit cache's `remember` may release the cell it replaces,
        // but a hit cache only holds cells that their table holds too (a table purges the hit
        // caches before the cells it drops are released), so that release is never the last.
        let prepared = state.withLockReading { state, generation -> Prepared in
            guard state.isAutoRegistered || isInsideAutoRegistration else {
                return .needsAutoRegistration
            }
            let registration = state.registrations.isEmpty ? nil : state.registrations[key]
            // A child resolves itself only what it registered a closure for; a modifier applied
            // to one of its factories from outside alone does not take it from the parent.
            if let parent = state.parent,
                registration?.makesInstances != true || ResolutionFrame.current.isRedirected(self)
            {
                return .delegate(to: parent)
            }
            let scope =
                winningOption(
                    declared: declaredScope, registered: registration?.scope, isOnce: isOnce)
                ?? state.defaultScope ?? Scope.unique
            let timeToLive = winningOption(
                declared: declaredTimeToLive, registered: registration?.timeToLive,
                isOnce: isOnce)
            #if DEBUG
                let checksCaptive = scope.holdsWeakly
            #else
                let checksCaptive = false
            #endif
            // `needsFinish` without building the plan: what a plain hit skips.
            let needsFinish =
                state.isObserved || registration?.hasDecorator == true || checksCaptive
            func plan() -> Plan {
                Plan(
                    registration: registration, scope: scope, timeToLive: timeToLive,
                    trace: state.trace, records: state.isRecordingDependencies,
                    decorator: state.decorator, cacheOwner: state.cacheOwner,
                    checksCaptive: checksCaptive)
            }
            // What the hit cache may skip: nothing but the lookup happens on a hit, and nothing
            // but the declared closure (and the graph's lookup) on a `.unique` (`.graph`)
            // resolve.
            // A lifetime scope lives one request: its own cells are not remembered (they would
            // only push longer-lived entries out, and make its deinit purge every thread's
            // cache), but while it is pristine the rest is, under its template, for every
            // lifetime scope made from the same state of its container.
            if scope.isRememberedOnHit, timeToLive == nil, parameter == nil, !needsFinish,
                state.parent == nil, state.cacheOwner == nil
            {
                if !state.isEphemeral {
                    remembered = (ObjectIdentifier(self), generation)
                } else if state.pristineWord != nil, let template = state.template {
                    remembered = (ObjectIdentifier(template), template.generation)
                }
            }
            // A custom scope's storage is called only where a creation can follow; so is a
            // factory with a `timeToLive`, whose age check reads the clock (user code) before
            // the lock there.
            let placement: Scope.Placement =
                scope.custom == nil && timeToLive == nil ? scope.placement : .none
            switch placement {
            case .container:
                let instanceKey = InstanceKey(factory: key, owner: nil, parameter: parameter)
                // A lifetime scope's own cells are not remembered, but that the factory is a
                // plain caching one is, for every scope made from the same template.
                if let remembered, state.isEphemeral, registration == nil, declaredScope != nil {
                    ResolutionFrame.current.hits.remember(
                        nil, kind: .container, origin: remembered.id, key: key,
                        scope: declaredScope, generation: remembered.generation, realm: nil,
                        realmGeneration: 0)
                }
                if let owner = state.cacheOwner {
                    let sharedPlan = plan()
                    sharedLookup = (owner, instanceKey, sharedPlan)
                    return .miss(sharedPlan)
                }
                if let cell = state.instances.cell(for: instanceKey, in: scope) {
                    if let remembered, !state.isEphemeral {
                        if state.instances.rememberedBy == nil {
                            state.instances.rememberedBy = ObjectIdentifier(self)
                        }
                        ResolutionFrame.current.hits.remember(
                            cell, origin: remembered.id, key: key, scope: declaredScope,
                            generation: remembered.generation, realm: nil, realmGeneration: 0)
                    }
                    return .hit(cell, isWeak: scope.holdsWeakly, plan: needsFinish ? plan() : nil)
                }
            case .process:
                let instanceKey = InstanceKey(
                    factory: key, owner: containerType, parameter: parameter)
                let processPlan = plan()
                processLookup = (instanceKey, processPlan)
                return .miss(processPlan)
            case .none, .graph:
                // A custom scope is `.none` here, but never remembered (`isRememberedOnHit`).
                if let remembered, registration == nil {
                    ResolutionFrame.current.hits.remember(
                        nil, kind: placement == .graph ? .graph : .unique, origin: remembered.id,
                        key: key, scope: declaredScope, generation: remembered.generation,
                        realm: nil, realmGeneration: 0)
                }
            }
            return .miss(plan())
        }
        let cell: InstanceTable.Cell?
        let plan: Plan
        if let (processKey, processPlan) = processLookup {
            plan = processPlan
            let realm = realm
            let hits = ResolutionFrame.current.hits
            // Whether the thread remembers the singleton by realm, for any container of the type.
            let remembersByRealm = parameter == nil && !plan.scope.holdsWeakly
            // A singleton this thread saw in the realm, still current: found without the
            // realm's lock, from any container of the type.
            let seenGeneration = realmGeneration
            if remembersByRealm,
                let seen = hits.realmCell(
                    realm: ObjectIdentifier(realm), key: key, containerType: containerType,
                    generation: seenGeneration),
                seen.scope == ObjectIdentifier(plan.scope)
            {
                // Remembered for this container too (a lifetime scope's first resolve of it),
                // unless the realm changed meanwhile: then the next resolve takes its lock.
                if let remembered {
                    hits.remember(
                        seen, origin: remembered.id, key: key, scope: declaredScope,
                        generation: remembered.generation, realm: realm,
                        realmGeneration: seenGeneration,
                        unlessChanged: realm.instances.generationPointer)
                }
                return .hit(seen, isWeak: false, plan: plan.needsFinish ? plan : nil)
            }
            cell = realm.instances.withLockReading { table, realmGeneration in
                let found = table.cell(for: processKey, in: plan.scope)
                guard let cell = found, remembered != nil || remembersByRealm else { return found }
                // Written once: every core reads this table, so an unneeded write would take
                // its line from all of them.
                if table.rememberedBy == nil {
                    table.rememberedBy = ObjectIdentifier(realm)
                }
                if let remembered {
                    hits.remember(
                        cell, origin: remembered.id, key: key, scope: declaredScope,
                        generation: remembered.generation, realm: realm,
                        realmGeneration: realmGeneration)
                }
                if remembersByRealm {
                    hits.rememberRealm(
                        cell, realm: ObjectIdentifier(realm), key: key,
                        containerType: containerType, generation: realmGeneration)
                }
                return cell
            }
        } else if let (owner, sharedKey, sharedPlan) = sharedLookup {
            plan = sharedPlan
            cell = owner.state.withLockReading { state, _ in
                state.instances.cell(for: sharedKey, in: plan.scope)
            }
        } else {
            return prepared
        }
        guard let cell else { return prepared }
        return .hit(cell, isWeak: plan.scope.holdsWeakly, plan: plan.needsFinish ? plan : nil)
    }

    /// The cell of a plain hit of `key` declared with `scope`, or that it resolves as a plain
    /// `.unique`, `.graph` or (in a pristine lifetime scope) caching factory, if this thread saw
    /// so and nothing in this manager (or the singletons, for a process-wide scope) changed
    /// since, or, for `.unique` and `.graph`, if the container is plain (`State.updatePlain()`):
    /// no manager lock, no shared write.
    /// After a kept hit, the thread's hit cache stays locked until the caller, having read the
    /// cell, calls `endHit()` on it.
    ///
    /// Declared to release nothing, which holds for everything a caller can hold: it reads the
    /// thread's cache, and a thread's first call makes its frame and cache, whose registration
    /// can at most free the registry's old storage. The caller's module sees only the
    /// declaration; without this it must assume the call may release the container, and it
    /// retained the container (a write to a cache line every thread shares) around every hit.
    @usableFromInline
    @_effects(releasenone)
    func beginHit(for key: FactoryKey, scope: ObjectIdentifier?) -> HitCache.Hit? {
        // A `.unique` or `.graph` factory of a plain container resolves as a plain one, found
        // without hashing its key. The declared scope (which never goes, see `Scope.init`) is
        // read first: a caching factory's hit pays no more than that.
        let plain: HitCache.Hit?
        if let scope {
            let declared = Unmanaged<Scope>.fromOpaque(
                UnsafeRawPointer(bitPattern: UInt(bitPattern: scope))!)
            switch declared._withUnsafeGuaranteedRef({ $0.placement }) {
            case .none: plain = .unique
            case .graph: plain = .graph
            case .container, .process: plain = nil
            }
        } else {
            plain = .unique
        }
        if let plain, depot_atomic_load(plainAddress) != 0 {
            return plain
        }
        return ResolutionFrame.currentReference._withUnsafeGuaranteedRef {
            $0.hits.beginHit(manager: self, key: key, scope: scope)
        }
    }
}
