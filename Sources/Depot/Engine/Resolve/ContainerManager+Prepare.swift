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

// What `prepare` finds: the plan of one resolution.
extension ContainerManager {
    /// What a resolve does next, decided plainly from the flags word
    /// (`FactoryRegistration.plainDecision()`). Not generic: what a factory's module compiles
    /// to let go of it is the same for every factory.
    @usableFromInline
    enum Decision {
        /// Return the instance `cell` keeps.
        case hit(InstanceTable.Cell)
        /// Return the instance `cell` keeps after checking it for a captive owner, as a
        /// prepared hit is checked.
        case checkedHit(InstanceTable.Cell)
        /// Nothing is kept: make the value with `plan`, made at registrations' `version`.
        case miss(Plan, version: UInt64)
    }

    /// What the manager's state says about one resolution: a class, so that a resolve keeps one
    /// reference on the stack while the factory runs.
    @usableFromInline
    final class Plan {
        @usableFromInline let registration: ContainerManager.Registration?
        // A scope's plain plan (`Scope.plainPlan`) and the scope hold each other: a scope is a
        // declaration, made once, that lives as long as the process.
        @usableFromInline let scope: Scope
        @usableFromInline let timeToLive: Double?
        @usableFromInline let trace: Bool
        /// Whether the manager records the dependency graph, or the dependents that
        /// `resetsDependents` drops.
        @usableFromInline let records: Bool
        @usableFromInline let decorator: ((Any) -> Void)?
        /// The manager whose per-container caches to use, when `useScope(from:)` set one.
        @usableFromInline let cacheOwner: ContainerManager?
        /// Whether the resolve is checked for a captive owner (`State.checksCaptive(in:)`).
        @usableFromInline let checksCaptive: Bool

        /// Whether a resolved value needs more than returning: decorators, a trace line,
        /// recording, or the captive check.
        @usableFromInline let needsFinish: Bool

        /// Whether the plan makes a new value and nothing more: no registration, no scope that
        /// keeps or shares it, nothing to finish.
        @usableFromInline var isPlainUnique: Bool {
            registration == nil && !needsFinish && scope.placement == .none
        }

        /// A plan with only `scope` and `checksCaptive` is the scope's plain plan.
        init(
            registration: ContainerManager.Registration? = nil, scope: Scope,
            timeToLive: Double? = nil, trace: Bool = false, records: Bool = false,
            decorator: ((Any) -> Void)? = nil, cacheOwner: ContainerManager? = nil,
            checksCaptive: Bool = false
        ) {
            self.checksCaptive = checksCaptive
            self.registration = registration
            self.scope = scope
            self.timeToLive = timeToLive
            self.trace = trace
            self.records = records
            self.decorator = decorator
            self.cacheOwner = cacheOwner
            needsFinish =
                trace || records || decorator != nil || registration?.hasDecorator == true
                || checksCaptive
        }
    }

    /// What ``FactoryRegistration/planned(_:)`` found.
    enum Planned {
        /// The kept instance, in `cell` or, for a weak scope, loaded from it; to finish with
        /// `plan` where it has one.
        case hit(InstanceTable.Cell, loaded: AnyObject?, plan: Plan?)
        /// Nothing is kept: make the value with `plan`, made at registrations' `version`.
        case miss(Plan, version: UInt64)
        /// A child container has not registered the factory: its parent resolves it.
        case delegate(any ManagedContainer)
    }

    /// What a resolution found.
    @usableFromInline
    enum Prepared {
        /// The scope keeps an instance; `plan` only when decorators or tracing need it.
        case hit(InstanceTable.Cell, isWeak: Bool, plan: Plan?)
        case miss(Plan)
        case needsAutoRegistration
        /// A child container has not registered the factory: its parent resolves it.
        case delegate(to: any ManagedContainer)
    }
}

/// Where a resolved value came from, as tracing shows it.
@usableFromInline
enum ResolutionOrigin: String {
    case factory = "F"
    case registration = "R"
    case context = "O"
    case cached = "C"
}
