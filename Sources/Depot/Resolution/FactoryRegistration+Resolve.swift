extension FactoryRegistration {
    /// Resolves the factory's value for `parameter`.
    ///
    /// Inlinable so that the caller's module specialises it. What this thread's ``HitCache``
    /// remembers takes no lock: a hit is a cast of the kept cell, a plain `.unique` resolve runs
    /// the closure between a push and a pop of the thread's resolution frame, and a plain
    /// `.graph` one looks in the resolution graph first. Everything else goes through `prepare`
    /// (not generic) in `resolveLocked`.
    @inlinable
    @inline(__always)
    func resolve(_ parameter: P) -> T {
        // No declared scope means the container's default scope, `unique` unless set otherwise.
        if options == nil,
            scopeReference?._withUnsafeGuaranteedRef({ $0.isRememberedOnHit }) ?? true,
            let hit = managerReference._withUnsafeGuaranteedRef({
                $0.beginHit(
                    for: key,
                    scope: scopeReference?._withUnsafeGuaranteedRef { ObjectIdentifier($0) })
            })
        {
            switch hit {
            case .kept(let cache, let cell):
                // A strongly kept instance this thread found before, unchanged since.
                let value = cell._withUnsafeGuaranteedRef {
                    unsafeDowncast($0, to: InstanceTable.StrongCell<T>.self).value
                }
                cache._withUnsafeGuaranteedRef { $0.endHit() }
                return value
            case .unique:
                return resolveUnique(parameter)
            case .graph:
                return resolveGraph(parameter)
            }
        }
        return resolveLocked(parameter)
    }

    /// Runs the declared closure of a factory that resolved as a plain `.unique` one: entered on
    /// the thread's resolution path, for cycle checks and the graph.
    @inlinable
    func resolveUnique(_ parameter: P) -> T {
        let frame = ResolutionFrame.enterPlain(
            isGraph: false, manager: managerReference, key: key,
            parameter: stepParameter(parameter), containerType: Swift.type(of: container))
        defer { frame._withUnsafeGuaranteedRef { $0.leave() } }
        return body(parameter)
    }

    /// Resolves a factory that resolved as a plain `.graph` one: the instance the running
    /// resolution graph keeps, or the declared closure's, entered on the thread's resolution
    /// path and then kept in the graph.
    @inlinable
    func resolveGraph(_ parameter: P) -> T {
        let containerType = Swift.type(of: container)
        if let kept = ResolutionFrame.plainGraphInstance(
            manager: managerReference, key: key, containerType: containerType)
        {
            // The key names `T`, so the graph keeps a `T` for it.
            return kept.value(as: T.self)
        }
        let frame = ResolutionFrame.enterPlain(
            isGraph: true, manager: managerReference, key: key,
            parameter: stepParameter(parameter), containerType: containerType)
        defer { frame._withUnsafeGuaranteedRef { $0.leave() } }
        let value = body(parameter)
        frame._withUnsafeGuaranteedRef {
            $0.setPlainGraphInstance(GraphValue(value), manager: managerReference, key: key)
        }
        return value
    }

    /// Resolves through `prepare`, under the manager's lock: everything but a remembered hit.
    /// Specialised in the caller's module, but not inlined into every call site.
    @inlinable
    @inline(never)
    func resolveLocked(_ parameter: P) -> T {
        var isInsideAutoRegistration = false
        while true {
            let prepared = manager.prepare(
                key, scope: scope, timeToLive: timeToLive, isOnce: isOnce,
                parameter: parameterKey(parameter),
                containerType: ObjectIdentifier(Swift.type(of: container)),
                isInsideAutoRegistration: isInsideAutoRegistration)
            switch prepared {
            case .needsAutoRegistration:
                isInsideAutoRegistration = manager.autoRegisterIfNeeded(container)
            case .delegate(let parent):
                return resolve(in: parent, parameter)
            case .hit(let cell, let isWeak, let plan):
                // A weakly held instance can go between the lookup and here: then look again.
                guard let value = value(in: cell, isWeak: isWeak) else { continue }
                if plan != nil || decorator != nil {
                    finish(value, origin: .cached, plan: plan, entered: false)
                }
                return value
            case .miss(let plan):
                guard plan.registration == nil, plan.scope.placement == .none, !isPromised else {
                    return resolveMiss(parameter, plan: plan)
                }
                let frame = ResolutionFrame.current
                frame.enter(step(parameter), scope: plan.scope, manager: manager)
                defer { frame.leave() }
                let value = body(parameter)
                if plan.needsFinish || decorator != nil {
                    finish(value, origin: .factory, plan: plan, entered: true)
                }
                return value
            }
        }
    }

    /// Resolves in `parent` what a child container has not registered, exactly as the parent
    /// would: with its registrations and caches, and with every resolve on the child nested
    /// inside redirected to the parent too, so nothing the child registered reaches what the
    /// parent keeps.
    @usableFromInline
    func resolve(in parent: any ManagedContainer, _ parameter: P) -> T {
        var inParent = self
        inParent.container = parent
        inParent.manager = parent.manager
        let frame = ResolutionFrame.current
        frame.redirect(manager)
        defer { frame.endRedirect(manager) }
        return inParent.resolve(parameter)
    }

    /// The instance a kept cell holds.
    @inlinable
    func value(in cell: InstanceTable.Cell, isWeak: Bool) -> T? {
        // The key names the value's type and the scope the kind of cell, so the casts hold.
        if isWeak {
            // Loaded once and unwrapped before the cast: the instance can go at any moment, and
            // the optimised cast of an optional weak load does not check for nil (a release
            // build crashed in swift_dynamicCastClass when it went between two loads).
            guard let object = unsafeDowncast(cell, to: InstanceTable.WeakCell.self).object else {
                return nil
            }
            return object as? T
        }
        return unsafeDowncast(cell, to: InstanceTable.StrongCell<T>.self).value
    }

    /// Runs the decorators and traces.
    @inlinable
    func finish(
        _ value: T, origin: ResolutionOrigin, plan: ContainerManager.Plan?, entered: Bool
    ) {
        if let decorator = winningOption(
            declared: decorator, registered: plan?.registration?.decorator as? Decorator,
            isOnce: isOnce)
        {
            decorator(value, created: origin != .cached)
        }
        guard let plan else { return }
        plan.decorator?(value)
        if plan.trace || plan.records || (plan.checksCaptive && !entered) {
            manager.observe(step(nil), origin: origin, plan: plan, entered: entered)
        }
    }

    /// Resolves what the hit path does not: registrations, contexts, promises, graph and
    /// caching scopes' creation.
    @usableFromInline
    func resolveMiss(_ parameter: P, plan: ContainerManager.Plan) -> T {
        let frame = ResolutionFrame.current
        frame.enter(step(parameter), scope: plan.scope, manager: manager)
        defer { frame.leave() }
        var origin = ResolutionOrigin.factory
        let value: T
        switch plan.scope.placement {
        case .none:
            value = run(parameter, plan: plan, origin: &origin)
        case .graph:
            let key = InstanceKey(
                factory: key, owner: ObjectIdentifier(manager), parameter: parameterKey(parameter))
            if let kept = frame.graphInstance(for: key) {
                value = kept.value(as: T.self)
                origin = .cached
            } else {
                value = run(parameter, plan: plan, origin: &origin)
                frame.setGraphInstance(GraphValue(value), for: key)
            }
        case .container:
            let key = InstanceKey(factory: key, owner: nil, parameter: parameterKey(parameter))
            let owner = plan.cacheOwner ?? manager
            let isKept: Bool
            (value, isKept) = instance(
                in: owner, key: key, parameter: parameter, plan: plan, frame: frame,
                origin: &origin)
            if isKept {
                plan.scope.track(owner)
            }
        case .process:
            let owner = ObjectIdentifier(Swift.type(of: container))
            let key = InstanceKey(factory: key, owner: owner, parameter: parameterKey(parameter))
            (value, _) = instance(
                in: manager.realm, key: key, parameter: parameter, plan: plan, frame: frame,
                origin: &origin)
        }
        finish(value, origin: origin, plan: plan, entered: true)
        return value
    }

    /// The parameter as part of the cache key, for a factory that caches one per parameter.
    @inlinable
    func parameterKey(_ parameter: P) -> ParameterKey? {
        scopesOnParameters ? ParameterKey(parameter) : nil
    }

    /// The instance `owner` keeps for `key`, created exactly once however many threads ask.
    /// Returns whether a new instance was kept.
    private func instance<Owner: InstanceOwner>(
        in owner: Owner, key: InstanceKey, parameter: P, plan: ContainerManager.Plan,
        frame: ResolutionFrame, origin: inout ResolutionOrigin
    ) -> (T, Bool) {
        let clock = manager.clock
        while true {
            // Read before the lock: a clock is user code.
            let now = plan.timeToLive == nil ? 0 : clock.now()
            // A custom scope's storage runs under this lock, by design (see `ScopeStorage`).
            let found = owner.withInstances { table in
                table.lookup(
                    key, in: plan.scope, timeToLive: plan.timeToLive, now: now,
                    frame: frame, step: frame.parent!)
            }
            switch found {
            case .hit(let cell):
                if let value = value(in: cell, isWeak: plan.scope.holdsWeakly) {
                    origin = .cached
                    return (value, false)
                }
            case .stored(let stored):
                guard let value = stored as? T else {
                    fatalError(
                        "Depot: the storage of scope \(plan.scope) returned a "
                            + "\(Swift.type(of: stored)) for \(step(parameter)), not the value "
                            + "Depot gave it. A ScopeStorage must return what setValue(_:for:) "
                            + "received for that key, or nil.")
                }
                origin = .cached
                return (value, false)
            case .waitFor(let creation):
                creation.wait(by: frame)
            case .create(let creation):
                let value = run(parameter, plan: plan, origin: &origin)
                let createdAt = clock.now()
                let isKept = owner.withInstances { table in
                    table.finish(
                        creation, key: key, value: value, scope: plan.scope, createdAt: createdAt)
                }
                creation.finish()
                if !isKept, plan.scope.holdsWeakly, !isNone(value), asObject(value) == nil {
                    warnOnce(
                        "Depot: \(step(parameter)) is a value type in the \(plan.scope) scope, "
                            + "which holds instances weakly; it behaves as unique. Use .cached to "
                            + "keep one value.")
                }
                return (value, isKept)
            }
        }
    }

    /// Runs the closure that applies: a context override, a registration, or the declaration's.
    private func run(
        _ parameter: P, plan: ContainerManager.Plan, origin: inout ResolutionOrigin
    ) -> T {
        if let registration = plan.registration {
            if !registration.contexts.isEmpty {
                let context = FactoryContext.current
                let matching = registration.contexts
                    .filter { $0.key.holds(in: context) }
                    .min { $0.key.priority < $1.key.priority }
                if let matching {
                    origin = .context
                    return (matching.value as! Body)(parameter)
                }
            }
            if let body = registration.factory {
                origin = .registration
                return (body as! Body)(parameter)
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
        return body(parameter)
    }

    private func warnOnce(_ message: @autoclosure () -> String) {
        guard FactoryContext.isDebugBuild else { return }
        let key = key
        let isFirst = manager.state.withLock { $0.warned.insert(key).inserted }
        if isFirst {
            manager.logger(message())
        }
    }
}

/// Something that keeps scoped instances behind its own lock.
protocol InstanceOwner: AnyObject {
    func withInstances<Result>(_ body: (inout InstanceTable) -> Result) -> Result
}

extension ContainerManager: InstanceOwner {
    func withInstances<Result>(_ body: (inout InstanceTable) -> Result) -> Result {
        state.withLock { body(&$0.instances) }
    }
}

extension SingletonRealm: InstanceOwner {
    func withInstances<Result>(_ body: (inout InstanceTable) -> Result) -> Result {
        instances.withLock(body)
    }
}
