// What `prepare` finds: the plan of one resolution.
extension ContainerManager {
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
