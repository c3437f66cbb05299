extension FactoryRegistration {
    /// Resolves what the hit path does not, with the factory's step on the thread's path.
    /// `plan` was made from the registrations at `version`. Compiled once, in Depot, for every
    /// factory: it and what it calls create no generic type of `T` (no `T?`, no closure
    /// capturing `self`), whose metadata code compiled once would look up at run time.
    @usableFromInline
    func resolveMiss(_ parameter: P, plan: ContainerManager.Plan, version: UInt64) -> T {
        // An alias that nothing replaces, keeps, observes or decorates is its source's resolve,
        // which enters the alias's step past a hit (`resolve(_:through:)`).
        if case .alias(let resolveSource) = body, options == nil, plan.isPlainUnique {
            return resolveSource(container, key)
        }
        let frame = ResolutionFrame.current
        frame.enter(
            step(parameter), scope: plan.scope, manager: manager,
            checksCaptive: plan.checksCaptive)
        defer { frame.leave() }
        checkAliasScope(plan.scope)
        var origin = ResolutionOrigin.factory
        // Kept apart from what a `.unique` resolve does: a factory that resolves itself
        // through other parameters nests a resolve per level, each taking its frames' stack.
        let placement = plan.scope.placement
        let value: T
        if placement == .none {
            value = run(parameter, plan: plan, origin: &origin)
        } else if placement == .graph {
            value = graphInstance(parameter, plan: plan, frame: frame, origin: &origin)
        } else {
            value = kept(parameter, plan: plan, version: version, frame: frame, origin: &origin)
        }
        // Most factories have no options, so no decorator: told without copying one out.
        if plan.needsFinish || (options != nil && decorator != nil) {
            finish(value, origin: origin, plan: plan, parameter: parameter, entered: true)
        }
        return value
    }

    /// The instance the resolution graph keeps for this factory and `parameter`, made now if
    /// it keeps none yet: once, however many threads and tasks share the graph.
    @inline(never)
    func graphInstance(
        _ parameter: P, plan: ContainerManager.Plan, frame: ResolutionFrame,
        origin: inout ResolutionOrigin
    ) -> T {
        let key = InstanceKey(
            factory: key, owner: ObjectIdentifier(manager), parameter: parameterKey(parameter))
        guard let graph = frame.sharedGraph else {
            // This thread's alone.
            if let kept = frame.localGraphInstance(for: key) {
                origin = .cached
                return kept.value(as: T.self)
            }
            let value = run(parameter, plan: plan, origin: &origin)
            frame.setGraphInstance(
                InstanceTable.strongCell(value, scope: plan.scope, createdAt: 0), for: key)
            return value
        }
        while true {
            let found = graph.lookup(key) {
                Creation(step: frame.top, scope: plan.scope, inside: frame.making)
            }
            switch consume found {
            case .kept(let kept):
                origin = .cached
                return kept.value(as: T.self)
            case .waitFor(let creation):
                // Another thread's: once it ends, look again.
                creation.wait(by: frame)
            case .create(let creation):
                frame.startCarrying(creation)
                let value = run(parameter, plan: plan, origin: &origin)
                frame.finishCarrying(creation)
                let cell = InstanceTable.strongCell(value, scope: plan.scope, createdAt: 0)
                graph.finish(key, cell: cell)?.finish(.success(value))
                return value
            }
        }
    }

    /// The instance a caching scope keeps (made now if it keeps none yet), where
    /// ``keeper(for:plan:)`` says, as an async resolve finds it.
    @inline(never)
    func kept(
        _ parameter: P, plan: ContainerManager.Plan, version: UInt64, frame: ResolutionFrame,
        origin: inout ResolutionOrigin
    ) -> T {
        // A caching scope's placement, which the caller switched on, has a keeper.
        let (owner, key) = keeper(for: parameter, plan: plan)!
        while true {
            let found = owner.find(
                key, plan: plan, version: version, step: frame.top, manager: manager
            ) {
                Creation(step: frame.top, scope: plan.scope, inside: frame.making)
            }
            switch consume found {
            case .kept(let cell, let object):
                origin = .cached
                return value(in: cell, loaded: object)
            case .stored(let stored):
                origin = .cached
                return storedValue(stored, plan: plan, parameter: parameter)
            case .missing:
                // Not kept, so not disposed by Depot either.
                return run(parameter, plan: plan, origin: &origin)
            case .waitFor(let creation):
                // Another thread's creation: once it ends, look again, as the instance may be
                // kept weakly, or not at all.
                creation.wait(by: frame)
            case .create(let creation):
                frame.startCarrying(creation)
                let value = run(parameter, plan: plan, origin: &origin)
                frame.finishCarrying(creation)
                // What this resolve made is returned as it is: the table may keep it weakly, or
                // not.
                let made = InstanceTable.Made.of(
                    value, in: plan.scope,
                    createdAt: plan.timeToLive == nil ? 0 : manager.clock.now(),
                    disposal: disposal(of: value, plan: plan, parameter: parameter))
                owner.keep(
                    made, madeBy: creation, key: key, scope: plan.scope,
                    timeToLive: plan.timeToLive, manager: manager)
                return value
            }
        }
    }

    /// What a custom scope's storage gave back, which must be the `T` Depot gave it.
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
    func run(_ parameter: P, plan: ContainerManager.Plan, origin: inout ResolutionOrigin) -> T {
        // Nothing registered and nothing promised: the declared closure.
        guard plan.registration != nil || options != nil else {
            origin = .factory
            return body(parameter, in: container)
        }
        return body(for: parameter, plan: plan, origin: &origin)(parameter, in: container)
    }

    /// The closure that applies (a context override, a registration, or the declaration's;
    /// `origin` says which), with the registered decorators around it.
    @usableFromInline
    func body(
        for parameter: P, plan: ContainerManager.Plan, origin: inout ResolutionOrigin
    ) -> Body {
        let body = chosenBody(for: parameter, plan: plan, origin: &origin)
        // A plain container has no parent, whose decorators a child's registration would take.
        guard let registration = plan.registration,
            registration.hasDecorations || !manager.plainness(for: key).isPlain
        else { return body }
        return decorated(body, by: registration)
    }

    /// The closure that applies: a context override, a registration, or the declaration's.
    @inline(__always)
    private func chosenBody(
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
                    // A reset that removes the context drops the singleton it made: noted for
                    // process-wide scopes only, so other scopes' resolves take no lock here.
                    if plan.scope.placement == .process {
                        manager.state.withLock { _ = $0.seldom.madeByContext.insert(key) }
                    }
                    return matching.value as! Body
                }
            }
            if let body = registration.factory {
                origin = .registration
                return body as! Body
            }
        }
        // The message is built only where it is used: a validation, or a stop.
        if let promise = options?.values.promise,
            manager.isValidating || manager.promiseTriggersError
        {
            let message =
                "Depot: \(step(parameter)) was promised (\(promise.file):\(promise.line)) but "
                + "nothing is registered for it in \(Swift.type(of: container))."
            let fix =
                "Register it before resolving, e.g. container.\(key.literal).register { ... }, "
                + "or set manager.promiseTriggersError = false to get nil."
            // A validation reports it and goes on with the declaration's nil.
            if !Validation.note(.missingRegistration, message, fix: fix),
                manager.promiseTriggersError
            {
                fatalError(message + " " + fix)
            }
        }
        origin = .factory
        return body
    }

    /// The teardown of `value`, if the factory has an `onDispose` closure and `plan`'s scope
    /// keeps instances strongly (a weak scope does not own them).
    func disposal(of value: T, plan: ContainerManager.Plan, parameter: P) -> Disposal? {
        guard let disposer = options?.values.disposer, !isNone(value) else { return nil }
        guard !plan.scope.holdsWeakly else {
            manager.warnOnce(
                about: key,
                "Depot: \(step(parameter)) has onDispose in the \(plan.scope) scope, which "
                    + "holds instances weakly and so never disposes them; its instances' deinit "
                    + "runs when the last owner lets go.")
            return nil
        }
        return Disposal(
            value: value, disposer: disposer, scope: ObjectIdentifier(plan.scope),
            step: stepWithoutParameter, manager: manager)
    }
}

extension FactoryRegistration {
    /// Where `plan`'s caching scope keeps this factory's instance for `parameter`, and its key
    /// there: the container's table, or the one it shares (`useScope(from:)`); for a
    /// process-wide scope, the singleton realm, under a key that names the container's type
    /// too. `nil` for a scope that keeps none (`.unique`, `.graph`). Sync and async resolves
    /// both decide here.
    func keeper(for parameter: P, plan: ContainerManager.Plan)
        -> (owner: any InstanceOwner & Sendable, key: InstanceKey)?
    {
        switch plan.scope.placement {
        case .none, .graph:
            return nil
        case .container:
            let key = InstanceKey(factory: key, owner: nil, parameter: parameterKey(parameter))
            return (plan.cacheOwner ?? manager, key)
        case .process:
            let owner = ObjectIdentifier(Swift.type(of: container))
            let key = InstanceKey(factory: key, owner: owner, parameter: parameterKey(parameter))
            return (manager.realm, key)
        }
    }
}
