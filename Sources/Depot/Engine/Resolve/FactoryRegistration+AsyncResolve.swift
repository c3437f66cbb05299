extension FactoryRegistration {
    /// Resolves an async factory's value for `parameter`: the same steps as `resolve`, but the
    /// closure is awaited, the path and graph live in the task (``AsyncResolution``), and a
    /// caching scope's creation runs in a task of its own (`asyncInstance`).
    @inlinable
    nonisolated(nonsending) func resolveAsync(_ parameter: P) async throws -> T {
        try await resolveAsync(parameter, alias: nil)
    }

    /// Resolves an async factory's value for `parameter`, as ``resolve(_:alias:)`` does: what
    /// the plain decision gives at once is returned without an `await`; the rest is compiled
    /// once, in Depot.
    @_alwaysEmitIntoClient
    @inline(__always)
    nonisolated(nonsending) func resolveAsync(_ parameter: P, alias: FactoryKey?) async throws
        -> T
    {
        let further: ContainerManager.Decision?
        switch asyncDecision() {
        case .hit(let cell):
            return cell.value(as: T.self)
        case .miss(let plan, let version):
            if let value = body.sourceHit(in: container, plan: plan) { return value }
            further = .miss(plan, version: version)
        case let decision:  // A hit to check for a captive owner, or no plain decision.
            further = decision
        }
        return try await resolveAsync(parameter, past: further, alias: alias)
    }

    /// The plain decision, or `nil` while a validation runs: it resolves in its copy of the
    /// manager (Validation.swift), which `resolveAsync(_:past:alias:)` finds.
    @_alwaysEmitIntoClient
    @inline(__always)
    func asyncDecision() -> ContainerManager.Decision? {
        manager.isValidating ? nil : plainDecision()
    }

    /// What ``resolveAsync(_:alias:)`` returns without an `await`, or `nil`: the step an
    /// async alias takes in its source before its first `await`.
    @_alwaysEmitIntoClient
    @inline(__always)
    func plainHit() -> T? {
        switch asyncDecision() {
        case .hit(let cell): cell.value(as: T.self)
        case .miss(let plan, _): body.sourceHit(in: container, plan: plan)
        case .checkedHit, nil: nil
        }
    }

    /// Resolves what the plain decision leaves: a hit checked for a captive owner, a miss,
    /// a resolve in a validation, or one the plain decision leaves to `prepare`.
    @usableFromInline
    nonisolated(nonsending) func resolveAsync(
        _ parameter: P, past decision: ContainerManager.Decision?, alias: FactoryKey?
    ) async throws -> T {
        switch decision {
        case .hit(let cell):  // Returned before the `await` already; here for the switch's sake.
            return cell.value(as: T.self)
        case .checkedHit(let cell):
            let value = cell.value(as: T.self)
            checkPlainHit(value, parameter)
            return value
        case .miss(let plan, let version):
            return try await resolveAsyncMiss(parameter, plan: plan, version: version, alias: alias)
        case nil:
            if manager.isValidating, let node = validationNode {
                return try await resolveValidating(parameter, below: node)
            }
            return try await resolvePrepared(parameter, alias: alias)
        }
    }

    /// Checks a plain hit for a captive owner on the task's path, as ``checkPlainHit()`` does on
    /// the thread's: compiled once, in Depot, for every factory.
    @usableFromInline
    func checkPlainHit(_ value: T, _ parameter: P) {
        let plan = Scope.Declared.plainPlan(declaredScope, checksCaptive: true, in: manager)
        finish(
            value, origin: .cached, plan: plan, parameter: parameter, entered: false,
            task: TaskPosition(below: AsyncResolution.current))
    }

    /// ``resolveAsync(_:)`` in a validation: in its copy of the manager (Validation.swift).
    @usableFromInline
    nonisolated(nonsending) func resolveValidating(_ parameter: P, below node: Validation.Node)
        async throws -> T
    {
        let (copy, entered): (Self, Validation.Node)
        switch node.validation.enter(self, parameter, below: node) {
        case .resolve(let made, let madeNode): (copy, entered) = (made, madeNode)
        case .stop(let problem): throw Validation.Stopped(problem: problem)
        }
        nonisolated(unsafe) let parameter = parameter
        defer { entered.leave() }
        do {
            return try await Validation.binding.withValue(entered) {
                try await copy.resolveAsync(parameter)
            }
        } catch {
            node.validation.noteThrown(error, at: entered)
            throw error
        }
    }

    /// ``resolvePrepared(_:)`` for an async resolve: a parent container resolves with `await`.
    /// (A container an alias takes no step in has no parent: `alias` goes on to a miss alone.)
    @usableFromInline
    nonisolated(nonsending) func resolvePrepared(_ parameter: P, alias: FactoryKey?)
        async throws -> T
    {
        switch planned(parameter) {
        case .delegate(let parent):
            ResolutionFrame.noteAsyncStarted()
            let redirected = AsyncResolution.redirected.union([ObjectIdentifier(manager)])
            return try await AsyncResolution.$redirected.withValue(redirected) {
                try await resolved(in: parent).resolveAsync(parameter)
            }
        case .hit(let cell, let object, let plan):
            let value = value(in: cell, loaded: object)
            if plan != nil || decorator != nil {
                finish(
                    value, origin: .cached, plan: plan, parameter: parameter, entered: false,
                    task: TaskPosition(below: AsyncResolution.current))
            }
            return value
        case .miss(let plan, let version):
            // Through the one caller of `resolveAsyncMiss`, so that it is compiled once.
            return try await resolveAsync(
                parameter, past: .miss(plan, version: version), alias: alias)
        }
    }

    /// The instance the graph of `node` keeps for this factory and `parameter`, made now if it
    /// keeps none yet: once, however many tasks (and threads, as
    /// `graphInstance(_:plan:frame:origin:)` does) ask at once.
    nonisolated(nonsending) func graphInstance(
        _ parameter: P, plan: ContainerManager.Plan, node: AsyncResolution,
        origin: inout ResolutionOrigin
    ) async throws -> T {
        let key = InstanceKey(
            factory: key, owner: ObjectIdentifier(manager), parameter: parameterKey(parameter))
        let found = node.graph.lookup(key) {
            Creation(step: node.step, scope: plan.scope, isAwaited: false)
        }
        switch consume found {
        case .kept(let kept):
            origin = .cached
            return kept.value(as: T.self)
        case .waitFor(let creation):
            // Another task's: `node` checked that its step is not on this path.
            origin = .cached
            return try await creation.value(for: node.parent, as: T.self)
        case .create(let creation):
            node.carry(creation)
            do {
                let value = try await run(parameter, in: node, plan: plan, origin: &origin)
                let cell = InstanceTable.strongCell(value, scope: plan.scope, createdAt: 0)
                node.graph.finish(key, cell: cell)?.finish(.success(value))
                return value
            } catch {
                node.graph.finish(key, cell: nil)?.finish(.failure(error))
                throw error
            }
        }
    }

    /// Runs in `node` the closure that applies, as `run(_:plan:origin:)` does.
    @inline(__always)
    nonisolated(nonsending) func run(
        _ parameter: P, in node: AsyncResolution, plan: ContainerManager.Plan,
        origin: inout ResolutionOrigin
    ) async throws -> T {
        // Nothing registered and nothing promised: the declared closure, without the search.
        guard plan.registration != nil || options != nil else {
            return try await node.make(body, parameter, in: container)
        }
        return try await node.make(
            body(for: parameter, plan: plan, origin: &origin), parameter, in: container)
    }

    /// Resolves what the hit path does not; `plan` was made from registrations at `version`.
    /// Inlined in its one caller, `resolveAsync(_:past:alias:)`, compiled once, in Depot, for
    /// every factory, as ``resolveMiss(_:plan:version:)`` is.
    /// Resolved through an `alias` that took no step of its own, it enters the alias's step
    /// first, as ``resolve(_:through:)`` does on a thread.
    @inline(__always)
    nonisolated(nonsending) func resolveAsyncMiss(
        _ parameter: P, plan: ContainerManager.Plan, version: UInt64, alias: FactoryKey?
    ) async throws -> T {
        // As in `resolveMiss`: an alias nothing changes is its source's resolve. (An alias
        // resolved through another takes a step, below the other's.)
        if case .asyncAlias(let source) = body, alias == nil, options == nil, plan.isPlainUnique {
            return try await Body.resolve(source, in: container, alias: key)
        }
        let through: AsyncResolution? =
            if let alias {
                AsyncResolution(
                    step(with: nil, key: alias), scope: Scope.unique, manager: manager,
                    parent: AsyncResolution.current)
            } else { nil }
        defer { through?.end() }
        let parent = through ?? AsyncResolution.current
        checkAliasScope(plan.scope)
        var origin = ResolutionOrigin.factory
        guard let (owner, key) = keeper(for: parameter, plan: plan) else {
            let node = AsyncResolution(
                step(parameter), scope: plan.scope, manager: manager, parent: parent,
                checksCaptive: plan.checksCaptive)
            let value =
                plan.scope.placement == .graph
                ? try await graphInstance(parameter, plan: plan, node: node, origin: &origin)
                : try await run(parameter, in: node, plan: plan, origin: &origin)
            if plan.needsFinish || decorator != nil {
                finish(
                    value, origin: origin, plan: plan, parameter: parameter, entered: true,
                    task: TaskPosition(node))
            }
            return value
        }
        let value = try await asyncInstance(
            in: owner, key: key, parameter: parameter, plan: plan, version: version,
            parent: parent, origin: &origin)
        if plan.needsFinish || decorator != nil {
            finish(
                value, origin: origin, plan: plan, parameter: parameter, entered: false,
                task: TaskPosition(below: parent))
        }
        return value
    }
}
