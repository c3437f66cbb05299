extension ContainerManager {
    /// Reads the registration and settings for a factory and looks for its kept instance: one
    /// lock and one hash lookup for a per-container hit, a second lock for a singleton.
    ///
    /// Not generic, so a caller in another module runs it without creating type metadata.
    @usableFromInline
    func prepare(
        _ key: FactoryKey, scope declared: Scope.Declared?, timeToLive declaredTimeToLive: Double?,
        isOnce: Bool, parameter: ParameterKey?, containerType: ObjectIdentifier,
        isInsideAutoRegistration: Bool
    ) -> Prepared {
        // Where the instance is looked up when it is not in this manager's own table: the
        // shared caches' owner, or (`nil`) the singleton realm.
        var elsewhere: (owner: InstanceOwner?, key: InstanceKey, plan: Plan)?
        // Reads only, and calls no user code: a custom scope's storage and the clock are left
        // to the creation path.
        let prepared = state.withLock { state -> Prepared in
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
                    declared: declared?.scope, registered: registration?.scope, isOnce: isOnce)
                ?? state.defaultScope ?? Scope.unique
            let timeToLive = winningOption(
                declared: declaredTimeToLive, registered: registration?.timeToLive,
                isOnce: isOnce)
            #if DEBUG
                let checksCaptive = scope.holdsWeakly
            #else
                let checksCaptive = false
            #endif
            // Made only where it is used: a plain hit needs none.
            func plan() -> Plan {
                Plan(
                    registration: registration, scope: scope, timeToLive: timeToLive,
                    trace: state.trace, records: state.isRecordingDependencies,
                    decorator: state.decorator, cacheOwner: state.cacheOwner,
                    checksCaptive: checksCaptive)
            }
            let needsFinish =
                state.isObserved || registration?.hasDecorator == true || checksCaptive
            // A custom scope's storage is called only where a creation can follow; so is a
            // factory with a `timeToLive`, whose age check reads the clock (user code) before
            // the lock there.
            guard scope.custom == nil, timeToLive == nil else { return .miss(plan()) }
            switch scope.placement {
            case .container:
                let instanceKey = InstanceKey(factory: key, owner: nil, parameter: parameter)
                if let owner = state.cacheOwner {
                    elsewhere = (owner, instanceKey, plan())
                } else if let cell = state.instances.cell(for: instanceKey, in: scope) {
                    return .hit(cell, isWeak: scope.holdsWeakly, plan: needsFinish ? plan() : nil)
                }
            case .process:
                let instanceKey = InstanceKey(
                    factory: key, owner: containerType, parameter: parameter)
                elsewhere = (nil, instanceKey, plan())
            case .none, .graph:
                break
            }
            return .miss(plan())
        }
        guard let (shared, instanceKey, plan) = elsewhere else { return prepared }
        // The realm is bound now if it was not: the one current when the container first needed
        // one.
        let owner = shared ?? realm
        let cell = owner.withInstances { $0.cell(for: instanceKey, in: plan.scope) }
        guard let cell else { return prepared }
        return .hit(cell, isWeak: plan.scope.holdsWeakly, plan: plan.needsFinish ? plan : nil)
    }
}
