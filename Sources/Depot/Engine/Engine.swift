// Depot's engine: how a factory's value is found or made. `resolve(_:)` below is the whole
// path of a synchronous resolve; `resolveAsync(_:)` (FactoryRegistration+AsyncResolve.swift)
// takes the same steps with `await`.
//
// The invariant the engine keeps: no user code runs while one of Depot's locks is held. A
// factory's closure, a decorator, a logger, a clock, and the deinit of any value Depot lets go
// of run only after the lock is let go. The exceptions are documented: a custom scope's
// `ScopeStorage`, whose methods are called under the lock of the table that owns the storage,
// and two gates (`Mutex`) whose purpose is to serialise user code, a `Lazy`'s first resolve
// and a container's `autoRegister()`.
// This holds by construction: every lock section is a function of a plain state that returns
// what to do next, and the caller does it after unlocking:
// - `ContainerManager.State.prepare` (ContainerManager+Prepare.swift) reads registrations and
//   settings and returns a hit, a miss with its plan, a delegation to a parent, or where else to
//   look (the shared caches, the singleton realm);
// - `InstanceTable.lookup` returns the kept instance, the creation in flight to wait for, or a
//   new creation the caller must carry out; `InstanceTable.finish` keeps what the creation made;
// - what a section lets go of (cells, registrations, containers) it puts in the state's
//   `dropped`, which `Locked.withLock` releases after unlocking (`DropsValues`).
//
// From that follow the guarantees (the Design article says where each is enforced): a caching
// scope's instance is made once per container, key and parameter, by the resolve whose lookup
// recorded the creation, while the others wait for it on a condition (threads) or suspend
// (tasks); a cycle is a step entered twice on one resolution path (ResolutionFrame,
// AsyncResolution), or a circle of creations waiting for each other (Creation, AsyncWaitGraph).
//
// Three things are read without a lock, as swift-atomics' atomics: a manager's flags word
// (whether it is plain, with nothing observed or shared, so that a `.unique`, `.graph`,
// `.cached` or `.singleton` factory that is not registered resolves without `prepare`, by its
// scope's plain plan; a filter of the registered keys that says which are surely not; which
// realm it bound; the version of its registrations), and
// `AsyncResolution.isStarted` (until an async resolution has run, a synchronous one reads none
// of its task-locals). The word is written under the manager's lock with every change that
// decides it, and a resolve that reads it just before a change resolves as it would have just
// before the change: it reads the registrations' version before it makes its plan, and a
// creation starts only while that version is current (`ContainerManager.isCurrent`) or the
// factory's own registration is unchanged, so what a replaced closure makes is never kept. The
// realm is bound once, and `isStarted` set once.
//
// Unsafe code is in four files of this folder, each saying why it is safe: Locked.swift (the
// lock's memory), ResolutionFrame+Thread.swift (the thread's frame, and which thread or task
// runs), InstanceTable+Cell.swift (reading a kept instance) and FactoryKey.swift (the address
// of a key's name).
extension FactoryRegistration {
    /// Resolves the factory's value for `parameter`: all roads lead here.
    ///
    /// `prepare` reads the registration and settings under the manager's lock and looks for a
    /// kept instance; a hit returns it, and a miss runs the factory with no lock held
    /// (`resolveMiss`). Inlinable so that the caller's module specialises it; `prepare` is not
    /// generic.
    @inlinable
    func resolve(_ parameter: P) -> T {
        #if DEBUG
            if let isolation { checkIsolation(isolation, parameter) }
        #endif
        switch plainResolve() {
        case .hit(let value)?: return value
        case .miss(let plan, let version)?:
            return resolveMiss(parameter, plan: plan, version: version)
        case nil: break
        }
        var isInsideAutoRegistration = false
        while true {
            // Read before the plan, so that a plan older than the registrations is known.
            let version = manager.version
            switch prepare(parameter, isInsideAutoRegistration: isInsideAutoRegistration) {
            case .needsAutoRegistration:
                isInsideAutoRegistration = manager.autoRegisterIfNeeded(container)
            case .delegate(let parent):
                return resolve(in: parent, parameter)
            case .hit(let cell, let isWeak, let plan):
                // A weakly held instance can go between the lookup and here: then look again.
                guard let value = value(in: cell, isWeak: isWeak) else { continue }
                if plan != nil || decorator != nil {
                    finish(value, origin: .cached, plan: plan, parameter: parameter, entered: false)
                }
                return value
            case .miss(let plan):
                return resolveMiss(parameter, plan: plan, version: version)
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

    /// What a plain container (see `ContainerManager.plainness(for:)`) needs of its state to
    /// resolve the factory: nothing but the instance a hit finds.
    @usableFromInline
    enum PlainResolve {
        /// The instance kept for a `.cached` or `.singleton` factory.
        case hit(T)
        /// None is kept: resolve with the scope's plain plan, what `prepare` would return, for
        /// the registrations at `version`.
        case miss(ContainerManager.Plan, version: UInt64)
    }

    /// How the factory resolves without `prepare`: in a plain container that has not registered
    /// it (as its bit in the filter of registered keys says, or else a look under the lock), when
    /// it has none of the settings `Options` hold (so no parameter in its key) and declares
    /// `.unique`, `.graph`, `.cached` or `.singleton`. `nil` when it must take `prepare`. Shared
    /// by the synchronous and async resolves.
    @inlinable
    @inline(__always)
    func plainResolve() -> PlainResolve? {
        let (isPlain, checksRegistration, version) = manager.plainness(for: key)
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
        if let cell, let value = value(in: cell, isWeak: false) { return .hit(value) }
        return Scope.Declared.plainPlan(declaredScope).map { .miss($0, version: version) }
    }

    /// What the manager's state says about resolving the factory for `parameter` now.
    @inlinable
    func prepare(_ parameter: P, isInsideAutoRegistration: Bool) -> ContainerManager.Prepared {
        manager.prepare(
            key, scope: declaredScope, timeToLive: timeToLive, isOnce: isOnce,
            parameter: parameterKey(parameter),
            containerType: ObjectIdentifier(Swift.type(of: container)),
            isInsideAutoRegistration: isInsideAutoRegistration)
    }

    /// The instance a kept cell holds.
    @inlinable
    func value(in cell: InstanceTable.Cell, isWeak: Bool) -> T? {
        cell.value(as: T.self, isWeak: isWeak)
    }

    /// Runs the decorators and traces. `entered` says whether the factory's step for
    /// `parameter` is on the resolution path; if not (a hit), it is entered while the decorators
    /// run, so that a decorator that resolves its own factory stops as a cycle.
    @inlinable
    @inline(never)
    func finish(
        _ value: T, origin: ResolutionOrigin, plan: ContainerManager.Plan?, parameter: P,
        entered: Bool, task: TaskPosition? = nil
    ) {
        // Looked for only where there is one: the cast and the choice are not free.
        let decorator =
            decorator != nil || plan?.registration?.hasDecorator == true
            ? winningOption(
                declared: decorator, registered: plan?.registration?.decorator as? Decorator,
                isOnce: isOnce) : nil
        if decorator != nil || plan?.decorator != nil {
            let frame = entered ? nil : ResolutionFrame.current
            // A hit's captive check is `observe`'s, below.
            frame?.enter(
                step(parameter), scope: plan?.scope ?? .unique, manager: manager,
                checksCaptive: false)
            defer { frame?.leave() }
            decorator?(value, created: origin != .cached)
            plan?.decorator?(value)
        }
        guard let plan else { return }
        if plan.trace || plan.records || (plan.checksCaptive && !entered) {
            manager.observe(step(nil), origin: origin, plan: plan, entered: entered, task: task)
        }
    }
}

// What a miss needs to find a kept instance.
extension FactoryRegistration {
    /// The parameter as part of the cache key, for a factory that caches one per parameter.
    @inlinable
    func parameterKey(_ parameter: P) -> ParameterKey? {
        scopesOnParameters ? ParameterKey(parameter) : nil
    }
}
