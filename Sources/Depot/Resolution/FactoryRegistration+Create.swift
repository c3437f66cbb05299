extension FactoryRegistration {
    /// The instance `owner` keeps for `key`, created exactly once however many threads ask.
    @inlinable
    func instance<Owner: InstanceOwner>(
        in owner: Owner, key: InstanceKey, parameter: P, plan: ContainerManager.Plan,
        frame: ResolutionFrame, origin: inout ResolutionOrigin
    ) -> T {
        // Only a factory with a `timeToLive` reads the clock: an instance's age matters to no
        // other (one kept without, and given a `timeToLive` later, counts as old).
        let clock = plan.timeToLive == nil ? nil : manager.clock
        while true {
            // Read before the lock: a clock is user code.
            let now = clock?.now() ?? 0
            // A custom scope's storage runs under this lock, by design (see `ScopeStorage`).
            let found = owner.withInstances(lookingUp: { table in
                table.lookup(
                    key, in: plan.scope, timeToLive: plan.timeToLive, now: now,
                    step: frame.top
                ) { number in
                    InFlight(
                        number: number, scope: ObjectIdentifier(plan.scope),
                        unshared: UnsharedCreation(owner: frame, step: frame.top))
                }
            })
            switch consume found {
            case .hit(let cell):
                if let value = value(in: cell, isWeak: plan.scope.holdsWeakly) {
                    origin = .cached
                    return value
                }
            case .stored(let stored):
                origin = .cached
                return storedValue(stored, plan: plan, parameter: parameter)
            case .absent, .busy:
                preconditionFailure("a creating, waiting lookup is never absent or busy")
            case .waitFor(let creation):
                guard let creation = creation as? Creation else {
                    fatalError("Depot: \(step(parameter)) is being created by an async factory.")
                }
                creation.wait(by: frame, in: owner)
            case .create(let creation):
                let value = run(parameter, plan: plan, origin: &origin)
                let createdAt = clock?.now() ?? 0
                let disposal = disposal(of: value, plan: plan, parameter: parameter)
                let (isKept, shared) = owner.keep(
                    value, madeBy: creation, key: key, scope: plan.scope, createdAt: createdAt,
                    disposal: disposal)
                if let shared {
                    // A synchronous creation's record is a `Creation`: only its waiters make one.
                    unsafeDowncast(shared, to: Creation.self).finish()
                }
                if !isKept {
                    // Handed to the caller, as a `.unique` instance would be, and not kept: so
                    // not disposed by Depot either.
                    _ = disposal?.claim()
                }
                if !isKept, plan.scope.holdsWeakly, !isNone(value), asObject(value) == nil {
                    warnOnce(
                        "Depot: \(step(parameter)) is a value type in the \(plan.scope) scope, "
                            + "which holds instances weakly; it behaves as unique. Use .cached to "
                            + "keep one value.")
                }
                return value
            }
        }
    }

    /// What a custom scope's storage gave back, which must be the `T` Depot gave it; anything
    /// else stops the process with what the storage did wrong.
    @usableFromInline
    func storedValue(_ stored: Any, plan: ContainerManager.Plan, parameter: P) -> T {
        guard let value = stored as? T else {
            fatalError(
                "Depot: the storage of scope \(plan.scope) returned a "
                    + "\(Swift.type(of: stored)) for \(step(parameter)), not the value "
                    + "Depot gave it. A ScopeStorage must return what setValue(_:for:) "
                    + "received for that key, or nil.")
        }
        return value
    }

    /// Runs the closure that applies: a context override, a registration, or the declaration's.
    @inlinable
    func run(
        _ parameter: P, plan: ContainerManager.Plan, origin: inout ResolutionOrigin
    ) -> T {
        // Nothing registered and nothing promised: the declared closure, without the
        // unspecialised search below.
        guard plan.registration != nil || options != nil else {
            origin = .factory
            return body(parameter)
        }
        return body(for: parameter, plan: plan, origin: &origin)(parameter)
    }

    /// The closure that applies: a context override, a registration, or the declaration's;
    /// `origin` says which.
    @usableFromInline
    func body(
        for parameter: P, plan: ContainerManager.Plan, origin: inout ResolutionOrigin
    ) -> Body {
        if let registration = plan.registration {
            if !registration.contexts.isEmpty {
                let context = FactoryContext.current
                let matching = registration.contexts
                    .filter { $0.key.holds(in: context) }
                    .min { $0.key.priority < $1.key.priority }
                if let matching {
                    origin = .context
                    return matching.value as! Body
                }
            }
            if let body = registration.factory {
                origin = .registration
                return body as! Body
            }
        }
        if let promise = options?.promise, manager.promiseTriggersError {
            fatalError(
                "Depot: \(step(parameter)) was promised (\(promise.file):\(promise.line)) but "
                    + "nothing is registered for it in "
                    + "\(Swift.type(of: container)). Register it before resolving, e.g. "
                    + "container.\(key.literal).register { ... }, or set "
                    + "manager.promiseTriggersError = false to get nil.")
        }
        origin = .factory
        return body
    }

    /// The teardown of `value`, just created, if the factory has an `onDispose` closure and
    /// `plan`'s scope keeps instances strongly (a weak scope does not own them, so it does not
    /// dispose them: their `deinit` does).
    @inlinable
    func disposal(of value: T, plan: ContainerManager.Plan, parameter: P) -> Disposal? {
        guard options?.disposer != nil else { return nil }
        return makeDisposal(of: value, plan: plan, parameter: parameter)
    }

    /// ``disposal(of:plan:parameter:)`` for a factory with an `onDispose` closure.
    @usableFromInline
    func makeDisposal(of value: T, plan: ContainerManager.Plan, parameter: P) -> Disposal? {
        guard let disposer = options?.disposer, !isNone(value) else { return nil }
        guard !plan.scope.holdsWeakly else {
            warnOnce(
                "Depot: \(step(parameter)) has onDispose in the \(plan.scope) scope, which "
                    + "holds instances weakly and so never disposes them; its instances' deinit "
                    + "runs when the last owner lets go.")
            return nil
        }
        return Disposal(
            value: value, disposer: disposer, scope: ObjectIdentifier(plan.scope),
            factory: step(parameter).description, manager: manager)
    }

    @usableFromInline
    func warnOnce(_ message: @autoclosure () -> String) {
        guard FactoryContext.isDebugBuild else { return }
        let key = key
        let isFirst = manager.state.withLock { $0.seldom.warned.insert(key).inserted }
        if isFirst {
            manager.logger(message())
        }
    }
}
/// Something that keeps scoped instances behind its own lock.
@usableFromInline
protocol InstanceOwner: AnyObject {
    func withInstances<Result>(_ body: (inout InstanceTable) -> Result) -> Result
    /// ``withInstances(_:)`` for a lookup: not generic, so that its lock's code is specialised
    /// for the owner's state (the generic one reaches the state's dropped values through its
    /// witness table, on every creation).
    func withInstances(lookingUp body: (inout InstanceTable) -> InstanceTable.Lookup)
        -> InstanceTable.Lookup
    /// ``withInstances(_:)`` for keeping a created instance, not generic for the same reason.
    func withInstances(keeping body: (inout InstanceTable) -> InstanceTable.Kept)
        -> InstanceTable.Kept
    /// Blocks until `isDone` is true, under this owner's lock and its `condition` (see
    /// `Locked.wait(on:until:)`).
    func wait(on condition: Condition, until isDone: () -> Bool)
    /// Notes this owner in the holders of `scope`, in shard `shard`, so that `scope.reset()`
    /// reaches the instance it keeps: for the first one of a per-container scope.
    func noteHolding(_ scope: Scope, shard: Int)
}

extension InstanceOwner {
    /// Keeps `value`, made by `creation` (see ``InstanceTable/finish(_:key:value:scope:createdAt:disposal:)``),
    /// and marks the creation finished, under the lock; notes this owner in the scope's holders
    /// if it is its first instance of a per-container scope. Returns whether the value was kept,
    /// and the creation's shared record, if others may wait on it, marked finished
    /// (``PendingCreation/markFinished()``): a synchronous creator must then `finish()` it.
    /// Shared by the synchronous and async creations.
    @inlinable
    func keep<Value>(
        _ value: Value, madeBy creation: InFlight, key: InstanceKey, scope: Scope,
        createdAt: Double, disposal: Disposal?
    ) -> (isKept: Bool, shared: PendingCreation?) {
        let shard = Scope.currentShard
        let (isKept, isFirstOfScope, shared) = withInstances(keeping: { table in
            let (isKept, shared) = table.finish(
                creation, key: key, value: value, scope: scope, createdAt: createdAt,
                disposal: disposal)
            shared?.markFinished()
            return (
                isKept,
                isKept && scope.placement == .container
                    && table.needsTracking(in: scope, shard: shard),
                shared
            )
        })
        if isFirstOfScope {
            noteHolding(scope, shard: shard)
        }
        return (isKept, shared)
    }
}

extension ContainerManager: InstanceOwner {
    @usableFromInline
    func withInstances<Result>(_ body: (inout InstanceTable) -> Result) -> Result {
        state.withLock { body(&$0.instances) }
    }

    @usableFromInline
    func withInstances(lookingUp body: (inout InstanceTable) -> InstanceTable.Lookup)
        -> InstanceTable.Lookup
    {
        state.withLock { body(&$0.instances) }
    }

    @usableFromInline
    func withInstances(keeping body: (inout InstanceTable) -> InstanceTable.Kept)
        -> InstanceTable.Kept
    {
        state.withLock { body(&$0.instances) }
    }

    @usableFromInline
    func noteHolding(_ scope: Scope, shard: Int) {
        scope.track(self, shard: shard)
    }

    @usableFromInline
    func wait(on condition: Condition, until isDone: () -> Bool) {
        state.wait(on: condition, until: isDone)
    }
}

extension SingletonRealm: InstanceOwner {
    @usableFromInline
    func withInstances<Result>(_ body: (inout InstanceTable) -> Result) -> Result {
        instances.withLock(body)
    }

    @usableFromInline
    func withInstances(lookingUp body: (inout InstanceTable) -> InstanceTable.Lookup)
        -> InstanceTable.Lookup
    {
        instances.withLock(body)
    }

    @usableFromInline
    func withInstances(keeping body: (inout InstanceTable) -> InstanceTable.Kept)
        -> InstanceTable.Kept
    {
        instances.withLock(body)
    }

    /// Never called: a realm keeps only process-wide scopes, which reset through the realm.
    @usableFromInline
    func noteHolding(_ scope: Scope, shard: Int) {}

    @usableFromInline
    func wait(on condition: Condition, until isDone: () -> Bool) {
        instances.wait(on: condition, until: isDone)
    }
}
