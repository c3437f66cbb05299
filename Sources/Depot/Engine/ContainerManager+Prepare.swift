extension ContainerManager {
    /// Reads the registration and settings for a factory and looks for its kept instance: one
    /// lock and one hash lookup for a per-container hit, a second lock (the shared caches' or
    /// the singleton realm's) for one kept elsewhere.
    ///
    /// Not generic, so a caller in another module runs it without creating type metadata.
    @usableFromInline
    func prepare(
        _ key: FactoryKey, scope declared: Scope.Declared?, timeToLive: Double?, isOnce: Bool,
        parameter: ParameterKey?, containerType: ObjectIdentifier, isInsideAutoRegistration: Bool
    ) -> Prepared {
        let request = State.Request(
            key: key, declaredScope: declared?.scope, declaredTimeToLive: timeToLive,
            isOnce: isOnce, parameter: parameter, containerType: containerType,
            isInsideAutoRegistration: isInsideAutoRegistration)
        switch state.withLock({ $0.prepare(request, in: self) }) {
        case .done(let prepared):
            return prepared
        case .lookUp(let key, let shared, let plan):
            // The realm is bound now if it was not: the one current when the container first
            // needed one.
            let owner: any InstanceOwner = if let shared { shared } else { realm }
            guard let cell = owner.withInstances({ $0.cell(for: key, in: plan.scope) }) else {
                return .miss(plan)
            }
            return .hit(cell, isWeak: plan.scope.holdsWeakly, plan: plan.needsFinish ? plan : nil)
        }
    }
}

extension ContainerManager.State {
    /// What a resolve asks of the manager's state.
    struct Request {
        let key: FactoryKey
        let declaredScope: Scope?
        let declaredTimeToLive: Double?
        let isOnce: Bool
        let parameter: ParameterKey?
        let containerType: ObjectIdentifier
        let isInsideAutoRegistration: Bool
    }

    /// What a resolve does next, as the state says under its lock.
    enum Next {
        /// What the resolve found.
        case done(ContainerManager.Prepared)
        /// Look for the instance under `key` in `shared`'s caches, or in the singleton realm
        /// (`nil`), after this lock is let go.
        case lookUp(InstanceKey, in: ContainerManager?, plan: ContainerManager.Plan)
    }

    /// Reads what decides how `request` resolves in the container of `manager`, and looks in its
    /// own table. Reads only, and calls no user code: a custom scope's storage and the clock
    /// are left to the creation path, which runs after the lock.
    func prepare(_ request: Request, in manager: ContainerManager) -> Next {
        guard isAutoRegistered || request.isInsideAutoRegistration else {
            return .done(.needsAutoRegistration)
        }
        let registration = registrations.isEmpty ? nil : registrations[request.key]
        // A child resolves itself only what it registered a closure for; a modifier applied to
        // one of its factories from outside alone does not take it from the parent.
        if let parent,
            registration?.makesInstances != true || ResolutionFrame.current.isRedirected(manager)
        {
            return .done(.delegate(to: parent))
        }
        let scope =
            winningOption(
                declared: request.declaredScope, registered: registration?.scope,
                isOnce: request.isOnce) ?? defaultScope ?? Scope.unique
        let timeToLive = winningOption(
            declared: request.declaredTimeToLive, registered: registration?.timeToLive,
            isOnce: request.isOnce)
        #if DEBUG
            let checksCaptive = scope.holdsWeakly
        #else
            let checksCaptive = false
        #endif
        // Made only where it is used: a plain hit needs none.
        func plan() -> ContainerManager.Plan {
            ContainerManager.Plan(
                registration: registration, scope: scope, timeToLive: timeToLive, trace: trace,
                records: isRecordingDependencies, decorator: decorator, cacheOwner: cacheOwner,
                checksCaptive: checksCaptive)
        }
        // A custom scope's storage is called only where a creation can follow; so is a factory
        // with a `timeToLive`, whose age check reads the clock (user code) first.
        guard scope.custom == nil, timeToLive == nil else { return .done(.miss(plan())) }
        switch scope.placement {
        case .container:
            let key = InstanceKey(factory: request.key, owner: nil, parameter: request.parameter)
            if let cacheOwner {
                return .lookUp(key, in: cacheOwner, plan: plan())
            }
            guard let cell = instances.cell(for: key, in: scope) else { break }
            let needsFinish = isObserved || registration?.hasDecorator == true || checksCaptive
            return .done(.hit(cell, isWeak: scope.holdsWeakly, plan: needsFinish ? plan() : nil))
        case .process:
            let key = InstanceKey(
                factory: request.key, owner: request.containerType, parameter: request.parameter)
            return .lookUp(key, in: nil, plan: plan())
        case .none, .graph:
            break
        }
        return .done(.miss(plan()))
    }
}
