extension ContainerManager {
    /// Reads the registration and settings for a factory and looks for its kept instance, in a
    /// second lock (the shared caches' or the singleton realm's) for one kept elsewhere.
    @usableFromInline
    func prepare(
        _ key: FactoryKey, scope declared: Scope.Declared?, timeToLive: Double?, isOnce: Bool,
        parameter: ParameterKey?, containerType: ObjectIdentifier, isInsideAutoRegistration: Bool
    ) -> Prepared {
        let declaredScope = declared?.scope
        let next = state.withLock { state in
            state.prepare(
                key, declaredScope: declaredScope, declaredTimeToLive: timeToLive, isOnce: isOnce,
                parameter: parameter, containerType: containerType,
                isInsideAutoRegistration: isInsideAutoRegistration, in: self)
        }
        switch next {
        case .done(let prepared):
            return prepared
        case .lookUpShared(let owner, let plan):
            let key = InstanceKey(factory: key, owner: nil, parameter: parameter)
            return Self.hit(owner.cell(for: key, in: plan.scope), plan: plan)
        case .lookUpSingleton(let plan):
            let key = InstanceKey(factory: key, owner: containerType, parameter: parameter)
            return Self.hit(singletonCell(for: key, in: plan.scope), plan: plan)
        }
    }

    /// A hit of `cell`, if there is one, or a miss.
    private static func hit(_ cell: InstanceTable.Cell?, plan: Plan) -> Prepared {
        guard let cell else { return .miss(plan) }
        return .hit(cell, isWeak: plan.scope.holdsWeakly, plan: plan.needsFinish ? plan : nil)
    }
}

extension ContainerManager.State {
    /// What a resolve does next, as the state says under its lock.
    enum Next {
        /// What the resolve found.
        case done(ContainerManager.Prepared)
        /// Look for the instance in the caches of `owner` (`useScope(from:)`) after this lock.
        case lookUpShared(in: ContainerManager, plan: ContainerManager.Plan)
        /// Look for the instance in the singleton realm after this lock.
        case lookUpSingleton(plan: ContainerManager.Plan)
    }

    /// Reads what decides how the factory `key` resolves in the container of `manager`, and
    /// looks in its own table. Calls no user code: a custom scope's storage and the clock are
    /// left to the creation path, after the lock.
    // It changes nothing; `mutating` lends it the locked state in place, where a non-mutating
    // call would first copy the whole state.
    mutating func prepare(
        _ key: FactoryKey, declaredScope: Scope?, declaredTimeToLive: Double?, isOnce: Bool,
        parameter: ParameterKey?, containerType: ObjectIdentifier,
        isInsideAutoRegistration: Bool, in manager: ContainerManager
    ) -> Next {
        guard isAutoRegistered || isInsideAutoRegistration else {
            return .done(.needsAutoRegistration)
        }
        let registration = registrations.isEmpty ? nil : registrations[key]
        // A child resolves itself only what it registered a closure for; a modifier applied to
        // one of its factories from outside alone does not take it from the parent.
        if parent != nil,
            registration?.makesInstances != true || ResolutionFrame.current.isRedirected(manager)
        {
            return .done(.delegate(to: parent!))
        }
        let scope =
            winningOption(declared: declaredScope, registered: registration?.scope, isOnce: isOnce)
            ?? settings.defaultScope ?? Scope.unique
        let timeToLive = winningOption(
            declared: declaredTimeToLive, registered: registration?.timeToLive, isOnce: isOnce)
        let checksCaptive = checksCaptive(in: scope)
        // Made only where it is used: a plain hit needs none, and a plain miss takes the scope's.
        func plan() -> ContainerManager.Plan {
            if registration == nil, timeToLive == nil, !isObserved, cacheOwner == nil {
                return scope.plainPlan(checksCaptive: checksCaptive)
            }
            return ContainerManager.Plan(
                registration: registration, scope: scope, timeToLive: timeToLive,
                trace: settings.trace, records: records, decorator: settings.decorator,
                cacheOwner: cacheOwner, checksCaptive: checksCaptive)
        }
        // A custom scope's storage is called only where a creation can follow; so is a factory
        // with a `timeToLive`, whose age check reads the clock (user code) first.
        guard scope.custom == nil, timeToLive == nil else { return .done(.miss(plan())) }
        switch scope.placement {
        case .container:
            if let cacheOwner { return .lookUpShared(in: cacheOwner, plan: plan()) }
            let key = InstanceKey(factory: key, owner: nil, parameter: parameter)
            guard let cell = instances.cell(for: key, in: scope) else { break }
            let needsFinish =
                isObserved || registration?.hasDecorator == true || checksCaptive
            return .done(.hit(cell, isWeak: scope.holdsWeakly, plan: needsFinish ? plan() : nil))
        case .process:
            return .lookUpSingleton(plan: plan())
        case .none, .graph:
            break
        }
        return .done(.miss(plan()))
    }

    /// Whether a resolve in `scope` may be captive (debug builds): an instance this lifetime
    /// scope keeps, or one meant to live shorter than an owner (`reportsShortLivedCaptives`).
    func checksCaptive(in scope: Scope) -> Bool {
        #if DEBUG
            (isLifetimeScope && scope.placement == .container && scope.keepsStrongly)
                || (settings.reportsShortLivedCaptives && scope.livesShorterThanAnOwner)
        #else
            false
        #endif
    }
}
