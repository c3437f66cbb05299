// Depot's engine: how a factory's value is found or made. `resolve(_:)` below is the whole
// path of a synchronous resolve; `resolveAsync(_:)` (FactoryRegistration+AsyncResolve.swift)
// takes the same steps with `await`.
//
// The invariant: no user code runs while one of Depot's locks is held. Factories, decorators,
// loggers, clocks and the deinit of whatever Depot lets go of run after unlocking; the
// documented exceptions are a custom scope's `ScopeStorage` and two gates (`Mutex`) that exist
// to serialise user code: a `Lazy`'s first resolve and `autoRegister()`. It holds by
// construction: each lock section is a function of a plain state that returns what to do next,
// done after unlocking:
// - `ContainerManager.State.prepare` returns a hit, a miss with its plan, a delegation to a
//   parent, or where else to look (the shared caches, the singleton realm);
// - `InstanceTable.lookup` returns the kept instance, a creation to wait for, or that nothing
//   is kept, when the caller may `start` a creation and carry it out; `finish` keeps what it made;
// - a change of the manager's state (`ContainerManager.change`) publishes the flags word once,
//   at its end, and a change of registrations returns what to drop with them (`Dropping`),
//   dropped by `carryOut`, the one place the rule for resets is carried out;
// - what a section lets go of goes in the state's `dropped`, released after unlocking.
//
// From that follow the guarantees (the Design article says where each is enforced): a caching
// scope's instance is made once per container, key and parameter, by the resolve whose lookup
// recorded the creation, while the others wait; a cycle is a step entered twice on one path
// (ResolutionFrame, AsyncResolution), or a circle of creations waiting for each other.
//
// Read without a lock: a manager's flags word (whether it is plain, so that a factory it has
// not registered skips `prepare`; a filter of its registered keys; its realm; its
// registrations' version), derived from its state at the end of every change, under its lock,
// `ResolutionFrame.isAsyncStarted`, which only ever turns true, and
// `ContainerManager.validationsRunning`, how many validations run (a resolve reads its
// task-local only then), through the word each manager holds (`ContainerManager.validations`).
// A resolve reads the version before it makes its plan, and a creation starts only while that
// version is current or the factory's own registration is unchanged, so what a replaced
// closure makes is never kept.
//
// Unsafe code is in five files, each saying why it is safe: Locked.swift,
// ResolutionFrame+Thread.swift, InstanceTable+Cell.swift, FactoryKey.swift and
// Diagnostics/DepotCopies.swift.
extension FactoryRegistration {
    /// Resolves the factory's value for `parameter`: all roads lead here.
    @inlinable
    func resolve(_ parameter: P) -> T { resolve(parameter, alias: nil) }

    /// Resolves the factory's value for `parameter`. An alias that took no step of its own
    /// passes its key as `alias`, for a creation to enter before its own step.
    @_alwaysEmitIntoClient
    @inline(__always)
    func resolve(_ parameter: P, alias: FactoryKey?) -> T {
        // A validation resolves in its copy of the manager (Validation.swift).
        if manager.isValidating,
            let value = resolveIfValidating(parameter, file: #fileID, line: #line)
        {
            return value
        }
        #if DEBUG
            if let isolation, !manager.isValidationCopy { checkIsolation(isolation, parameter) }
        #endif
        switch plainDecision() {
        case .hit(let cell):
            return cell.value(as: T.self)
        case .checkedHit(let cell):
            checkPlainHit()
            return cell.value(as: T.self)
        case .miss(let plan, let version):
            guard let alias else { return resolveMiss(parameter, plan: plan, version: version) }
            return resolve(parameter, through: alias)
        case nil:
            guard let alias else { return resolvePrepared(parameter) }
            return resolve(parameter, through: alias)
        }
    }

    /// Resolves what the hit path does not for `alias`, an alias of this factory that took no
    /// step of its own: with the alias's step on the thread's path first, so that a cycle
    /// through it names it. Compiled once, in Depot.
    @usableFromInline
    func resolve(_ parameter: P, through alias: FactoryKey) -> T {
        let frame = ResolutionFrame.current
        let aliasStep = step(with: nil, key: alias)
        frame.enter(aliasStep, scope: Scope.unique, manager: manager, checksCaptive: false)
        defer { frame.leave() }
        return resolvePrepared(parameter)
    }

    /// Checks a plain hit for a captive owner: compiled once, in Depot, for every factory.
    @usableFromInline
    func checkPlainHit() {
        manager.checkPlainHit(
            stepWithoutParameter, declared: declaredScope, isSafeInTests: isSafeInTests)
    }

    /// Resolves what ``plainDecision()`` leaves, as ``planned(_:)`` says: a hit is finished
    /// here; a child's parent resolves what the child has not registered. Compiled once, in
    /// Depot, as ``resolveMiss(_:plan:version:)`` is.
    @usableFromInline
    func resolvePrepared(_ parameter: P) -> T {
        switch planned(parameter) {
        case .delegate(let parent):
            return resolve(in: parent, parameter)
        case .hit(let cell, let object, let plan):
            let value = value(in: cell, loaded: object)
            // Most factories have no options, so no decorator: told without copying one out.
            if plan != nil || (options != nil && decorator != nil) {
                finish(value, origin: .cached, plan: plan, parameter: parameter, entered: false)
            }
            return value
        case .miss(let plan, let version):
            return resolveMiss(parameter, plan: plan, version: version)
        }
    }

    /// Resolves in `parent` what a child container has not registered, with the resolves on the
    /// child nested inside, so nothing the child registered reaches what the parent keeps.
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

    /// The decision without `prepare`, or `nil` if it takes it: in a plain container, for a
    /// factory with no `Options` and a built-in declared scope that it has not registered (or,
    /// for a kept `.cached` or `.singleton` instance, registered with nothing that changes a
    /// hit). A debug build's lifetime scope decides so too, with plans that check for captive
    /// owners.
    @inlinable
    @inline(__always)
    func plainDecision() -> ContainerManager.Decision? {
        let (isPlain, checksRegistration, checksCaptive, version) = manager.plainness(for: key)
        guard options == nil, isPlain else { return nil }
        let cell: InstanceTable.Cell?
        switch declaredScope {
        case .builtIn(.cached):
            let lookup = manager.plainCachedCell(for: key, checksRegistration: checksRegistration)
            guard case .found(let found) = lookup else { return nil }
            cell = found
        case .builtIn(.singleton):
            let lookup = manager.plainSingletonCell(
                for: key, containerType: ObjectIdentifier(Swift.type(of: container)),
                checksRegistration: checksRegistration)
            guard case .found(let found) = lookup else { return nil }
            cell = found
        case nil, .builtIn(.unique), .builtIn(.graph):
            if checksRegistration, manager.hasRegistration(for: key) { return nil }
            cell = nil
        default:
            return nil
        }
        if let cell {
            return checksCaptive ? .checkedHit(cell) : .hit(cell)
        }
        return Scope.Declared.plainPlan(
            declaredScope, checksCaptive: checksCaptive, in: manager
        ).map {
            .miss($0, version: version)
        }
    }

    /// What the plan `prepare` makes under the manager's lock says, after `autoRegister()` if it
    /// has not run: for a synchronous resolve, an async one and `AsyncFactory.warmed()` alike.
    func planned(_ parameter: P) -> ContainerManager.Planned {
        var isInsideAutoRegistration = false
        while true {
            // Read before the plan, so that a plan older than the registrations is known.
            let version = manager.version
            let prepared = manager.prepare(
                key, scope: declaredScope, timeToLive: timeToLive, isOnce: isOnce,
                parameter: parameterKey(parameter),
                containerType: ObjectIdentifier(Swift.type(of: container)),
                isInsideAutoRegistration: isInsideAutoRegistration)
            switch consume prepared {
            case .needsAutoRegistration:
                // Registered, the plan is made again; inside `autoRegister()`, it is made
                // without waiting for it.
                isInsideAutoRegistration = manager.autoRegisterIfNeeded(container)
            case .delegate(let parent):
                return .delegate(parent)
            case .hit(let cell, let isWeak, let plan):
                let kept = FoundInstance(hit: cell, isWeak: isWeak)
                // A weakly held instance went since the lookup: look again.
                guard case .kept(let cell, let object)? = kept else { continue }
                return .hit(cell, loaded: object, plan: plan)
            case .miss(let plan):
                return .miss(plan, version: version)
            }
        }
    }

    /// The instance a kept cell holds, of type `T`: the one loaded from it if it holds one
    /// weakly (``InstanceTable/Cell/weakObject``). It makes no `T?`, whose type code compiled
    /// once would look up at run time.
    func value(in cell: InstanceTable.Cell, loaded object: AnyObject?) -> T {
        guard let object else { return cell.value(as: T.self) }
        // A weak cell holds what this factory made, a `T`.
        return object as! T
    }

    /// Runs the decorators and traces. A hit enters the factory's step while they run, so that
    /// a decorator that resolves its own factory stops as a cycle. Compiled once in Depot, for
    /// every factory; the factory's options are read only when it has some, so that a resolve
    /// without (one that a container records, say) looks no generic type up at run time.
    @usableFromInline
    func finish(
        _ value: T, origin: ResolutionOrigin, plan: ContainerManager.Plan?, parameter: P,
        entered: Bool, task: TaskPosition? = nil
    ) {
        if options != nil || plan?.decorator != nil || plan?.registration?.hasDecorator == true {
            decorate(value, origin: origin, plan: plan, parameter: parameter, entered: entered)
        }
        // A factory resolved while its container records the graph is kept for `validate()`.
        if let plan, plan.trace || plan.records || (plan.checksCaptive && !entered),
            manager.observe(
                stepWithoutParameter, origin: origin, plan: plan, entered: entered, task: task,
                isSafeInTests: isSafeInTests)
        {
            keepForValidation()
        }
    }

    /// Runs the decorators that apply, declared and registered. Compiled once in Depot, for
    /// every factory: few have decorators.
    @usableFromInline
    func decorate(
        _ value: T, origin: ResolutionOrigin, plan: ContainerManager.Plan?, parameter: P,
        entered: Bool
    ) {
        let decorator =
            decorator != nil || plan?.registration?.hasDecorator == true
            ? winningOption(
                declared: decorator, registered: plan?.registration?.decorator as? Decorator,
                isOnce: isOnce) : nil
        guard decorator != nil || plan?.decorator != nil else { return }
        let frame = entered ? nil : ResolutionFrame.current
        // A hit's captive check is `observe`'s, in `finish`.
        frame?.enter(
            step(parameter), scope: plan?.scope ?? .unique, manager: manager, checksCaptive: false)
        defer { frame?.leave() }
        decorator?(value, created: origin != .cached)
        plan?.decorator?(value)
    }
}
