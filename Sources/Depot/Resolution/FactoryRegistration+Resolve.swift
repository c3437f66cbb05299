extension FactoryRegistration {
    /// Resolves the factory's value for `parameter`.
    ///
    /// Inlinable so that the caller's module specialises it. What this thread's ``HitCache``
    /// remembers, or the container's plain word says, takes no lock: a hit is a cast of the
    /// kept cell, a plain `.unique` resolve runs the closure between a push and a pop of the
    /// thread's resolution frame, and a plain `.graph` one looks in the resolution graph first.
    /// Everything else goes through `prepare` (not generic) in `resolveLocked`.
    @inlinable
    @inline(__always)
    func resolve(_ parameter: P) -> T {
        if let hit = rememberedHit {
            switch hit {
            case .kept(let cache, let cell):
                return value(ofKept: cell, cache: cache)
            case .unique:
                return resolveUnique(parameter)
            case .graph:
                return resolveGraph(parameter)
            case .container:
                // Remembered only for a factory declared with its scope.
                return scopeReference!._withUnsafeGuaranteedRef {
                    resolveMiss(parameter, plan: ContainerManager.Plan(plainIn: $0))
                }
            }
        }
        return resolveLocked(parameter)
    }

    /// What this thread's ``HitCache`` remembers of the factory (or, for a `.unique` or
    /// `.graph` one of a plain container, that it resolves plainly), if it may be used: only
    /// for a factory with none of the settings `Options` holds, in a scope (no declared scope
    /// means the container's default, `unique` unless set otherwise) that the cache remembers.
    /// Shared by the synchronous and async resolves.
    @inlinable
    @inline(__always)
    var rememberedHit: HitCache.Hit? {
        guard options == nil,
            scopeReference?._withUnsafeGuaranteedRef({ $0.isRememberedOnHit }) ?? true
        else { return nil }
        return managerReference._withUnsafeGuaranteedRef {
            $0.beginHit(
                for: key, scope: scopeReference?._withUnsafeGuaranteedRef { ObjectIdentifier($0) })
        }
    }

    /// Reads a strongly kept instance this thread found before, unchanged since, and ends the
    /// hit.
    @inlinable
    @inline(__always)
    func value(
        ofKept cell: Unmanaged<InstanceTable.Cell>, cache: Unmanaged<HitCache>
    ) -> T {
        let value = cell._withUnsafeGuaranteedRef {
            unsafeDowncast($0, to: InstanceTable.StrongCell<T>.self).value
        }
        cache._withUnsafeGuaranteedRef { $0.endHit() }
        return value
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
            $0.setPlainGraphInstance(GraphItem(value), manager: managerReference, key: key)
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
            switch prepare(parameter, isInsideAutoRegistration: isInsideAutoRegistration) {
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
                // The thread's frame lives until the thread ends: used without counting a
                // reference, as the scope and manager it notes (which outlive the resolve).
                return ResolutionFrame.currentReference._withUnsafeGuaranteedRef { frame in
                    frame.enter(
                        step(parameter), scope: .passUnretained(plan.scope),
                        manager: .passUnretained(manager))
                    defer { frame.leave() }
                    let value = body(parameter)
                    if plan.needsFinish || decorator != nil {
                        finish(value, origin: .factory, plan: plan, entered: true)
                    }
                    return value
                }
            }
        }
    }

    /// Resolves in `parent` what a child container has not registered, exactly as the parent
    /// would: with its registrations and caches, and with every resolve on the child nested
    /// inside redirected to the parent too, so nothing the child registered reaches what the
    /// parent keeps.
    @usableFromInline
    func resolve(in parent: any ManagedContainer, _ parameter: P) -> T {
        let frame = ResolutionFrame.current
        frame.redirect(manager)
        defer { frame.endRedirect(manager) }
        return resolved(in: parent).resolve(parameter)
    }

    /// This factory as `parent`, the container a child sends it to, has it.
    @usableFromInline
    func resolved(in parent: any ManagedContainer) -> Self {
        var inParent = self
        inParent.container = parent
        inParent.manager = parent.manager
        return inParent
    }

    /// What the manager's state says about resolving the factory for `parameter` now.
    @inlinable
    func prepare(_ parameter: P, isInsideAutoRegistration: Bool) -> ContainerManager.Prepared {
        manager.prepare(
            key, scope: scope, timeToLive: timeToLive, isOnce: isOnce,
            parameter: parameterKey(parameter),
            containerType: ObjectIdentifier(Swift.type(of: container)),
            isInsideAutoRegistration: isInsideAutoRegistration)
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
        _ value: T, origin: ResolutionOrigin, plan: ContainerManager.Plan?, entered: Bool,
        task: TaskPosition? = nil
    ) {
        // Looked for only where there is one: the cast and the choice are not free.
        if decorator != nil || plan?.registration?.hasDecorator == true,
            let decorator = winningOption(
                declared: decorator, registered: plan?.registration?.decorator as? Decorator,
                isOnce: isOnce)
        {
            decorator(value, created: origin != .cached)
        }
        guard let plan else { return }
        plan.decorator?(value)
        if plan.trace || plan.records || (plan.checksCaptive && !entered) {
            manager.observe(step(nil), origin: origin, plan: plan, entered: entered, task: task)
        }
    }
}

// What a miss needs to find a kept instance.
extension FactoryRegistration {
    /// Calls `body` with the manager whose per-container caches `plan` uses: its `cacheOwner`,
    /// or else this factory's, which its container keeps, and so is not counted.
    @inlinable
    func withCacheOwner<Result>(
        of plan: ContainerManager.Plan, _ body: (ContainerManager) -> Result
    ) -> Result {
        if let owner = plan.cacheOwner { return body(owner) }
        return managerReference._withUnsafeGuaranteedRef(body)
    }

    /// The parameter as part of the cache key, for a factory that caches one per parameter.
    @inlinable
    func parameterKey(_ parameter: P) -> ParameterKey? {
        scopesOnParameters ? ParameterKey(parameter) : nil
    }
}
