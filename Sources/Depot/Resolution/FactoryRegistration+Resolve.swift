extension FactoryRegistration {
    /// What a resolution found under the manager's lock.
    private enum Prepared {
        /// A per-container instance was cached: the hit path, served in one lock.
        case hit(T, Plan)
        case miss(Plan)
        case needsAutoRegistration
    }

    /// What the manager's state says about this resolution.
    private struct Plan {
        let registration: ContainerManager.Registration?
        let scope: Scope
        let timeToLive: Double?
        let trace: Bool
        let containerDecorator: (@Sendable (Any) -> Void)?
    }

    /// Where a resolved value came from, as tracing shows it.
    enum Origin: String {
        case factory = "F"
        case registration = "R"
        case context = "O"
        case cached = "C"
    }

    /// Resolves the factory's value for `parameter`.
    func resolve(_ parameter: P) -> T {
        var isInsideAutoRegistration = false
        while true {
            let prepared = prepare(parameter, isInsideAutoRegistration: isInsideAutoRegistration)
            switch prepared {
            case .needsAutoRegistration:
                isInsideAutoRegistration = manager.autoRegisterIfNeeded(container)
            case .hit(let value, let plan):
                finish(value, origin: .cached, plan: plan)
                return value
            case .miss(let plan):
                let frame = ResolutionFrame.current
                frame.enter(step(parameter))
                defer { frame.leave() }
                let (value, origin) = make(parameter, plan: plan, frame: frame)
                finish(value, origin: origin, plan: plan)
                return value
            }
        }
    }

    /// Reads registrations and settings, and serves a per-container cache hit, in one lock.
    @inline(__always)
    private func prepare(_ parameter: P, isInsideAutoRegistration: Bool) -> Prepared {
        manager.state.withLock { state in
            guard state.isAutoRegistered || isInsideAutoRegistration else {
                return .needsAutoRegistration
            }
            let registration = state.registrations.isEmpty ? nil : state.registrations[key]
            let plan = Plan(
                registration: registration,
                scope: registration?.scope ?? scope ?? state.defaultScope ?? Scope.unique,
                timeToLive: registration?.timeToLive ?? timeToLive,
                trace: state.trace,
                containerDecorator: state.decorator)
            if plan.scope.placement == .container,
                let value: T = state.instances.instance(
                    for: instanceKey(parameter, owner: nil), in: plan.scope,
                    timeToLive: plan.timeToLive, now: { state.clock.now() })
            {
                return .hit(value, plan)
            }
            return .miss(plan)
        }
    }

    @inline(__always)
    private func instanceKey(_ parameter: P, owner: ObjectIdentifier?) -> InstanceKey {
        InstanceKey(
            factory: key, owner: owner,
            // `scopeOnParameters` exists only where P is Hashable, so the cast succeeds.
            parameter: scopesOnParameters ? (parameter as Any) as? AnyHashable : nil)
    }

    /// Gets the value from the plan's scope, creating it if the scope has none.
    private func make(_ parameter: P, plan: Plan, frame: ResolutionFrame) -> (T, Origin) {
        switch plan.scope.placement {
        case .none:
            return run(parameter, plan: plan)
        case .graph:
            let key = instanceKey(parameter, owner: ObjectIdentifier(manager))
            if let value = frame.graphInstance(for: key) {
                return (value as! T, .cached)
            }
            let (value, origin) = run(parameter, plan: plan)
            frame.setGraphInstance(value, for: key)
            return (value, origin)
        case .container:
            let made = instance(
                in: manager, key: instanceKey(parameter, owner: nil), parameter: parameter,
                plan: plan, frame: frame)
            if made.isKept {
                plan.scope.track(manager)
            }
            return (made.value, made.origin)
        case .process:
            let owner = ObjectIdentifier(Swift.type(of: container))
            let made = instance(
                in: manager.realm, key: instanceKey(parameter, owner: owner), parameter: parameter,
                plan: plan, frame: frame)
            return (made.value, made.origin)
        }
    }

    /// The instance `owner` keeps for `key`, created exactly once however many threads ask.
    private func instance<Owner: InstanceOwner>(
        in owner: Owner, key: InstanceKey, parameter: P, plan: Plan, frame: ResolutionFrame
    ) -> (value: T, origin: Origin, isKept: Bool) {
        let clock = manager.clock
        while true {
            let found: InstanceTable.Lookup<T> = owner.withInstances { table in
                table.lookup(
                    key, in: plan.scope, timeToLive: plan.timeToLive, now: { clock.now() },
                    frame: frame, step: frame.parent!)
            }
            switch found {
            case .hit(let value):
                return (value, .cached, false)
            case .waitFor(let creation):
                creation.wait(by: frame)
            case .create(let creation):
                let (value, origin) = run(parameter, plan: plan)
                let createdAt = clock.now()
                let isKept = owner.withInstances { table in
                    table.finish(
                        creation, key: key, value: value, scope: plan.scope, createdAt: createdAt)
                }
                creation.finish()
                if !isKept, plan.scope.holdsWeakly, !(Swift.type(of: value as Any) is AnyClass) {
                    warnOnce(
                        "Depot: \(step(parameter)) is a value type in the \(plan.scope) scope, "
                            + "which holds instances weakly; it behaves as unique. Use .cached to "
                            + "keep one value.")
                }
                return (value, origin, isKept)
            }
        }
    }

    /// Runs the closure that applies: a context override, a registration, or the declaration's.
    private func run(_ parameter: P, plan: Plan) -> (T, Origin) {
        if let registration = plan.registration {
            if !registration.contexts.isEmpty {
                let context = FactoryContext.current
                let matching = registration.contexts
                    .filter { $0.key.holds(in: context) }
                    .min { $0.key.priority < $1.key.priority }
                if let matching {
                    return ((matching.value as! Body)(parameter), .context)
                }
            }
            if let body = registration.factory {
                return ((body as! Body)(parameter), .registration)
            }
        }
        if isPromised, manager.promiseTriggersError {
            fatalError(
                "Depot: \(step(parameter)) was promised but nothing is registered for it in "
                    + "\(Swift.type(of: container)). Register it before resolving, e.g. "
                    + "container.\(name).register { ... }, or set "
                    + "manager.promiseTriggersError = false to get nil.")
        }
        return (body(parameter), .factory)
    }

    /// Runs the decorators and traces.
    @inline(__always)
    private func finish(_ value: T, origin: Origin, plan: Plan) {
        if let decorator = plan.registration?.decorator as? Decorator ?? decorator {
            decorator(value, created: origin != .cached)
        }
        plan.containerDecorator?(value)
        if plan.trace {
            let depth = ResolutionFrame.current.depth
            manager.logger(
                "Depot: \(depth): \(step(nil)) = \(origin.rawValue) [\(plan.scope)]")
        }
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
