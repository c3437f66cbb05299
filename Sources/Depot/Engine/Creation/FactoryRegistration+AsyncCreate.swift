extension FactoryRegistration {
    /// The instance `owner` keeps for `key`, created exactly once however many tasks ask: the
    /// first asker records a creation and starts a task that runs the factory; every asker,
    /// the first included, waits for it (see ``Creation``). An error reaches every waiter.
    nonisolated(nonsending) func asyncInstance(
        in owner: any InstanceOwner & Sendable, key: InstanceKey, parameter: P,
        plan: ContainerManager.Plan, version: UInt64, parent: AsyncResolution?,
        origin: inout ResolutionOrigin
    ) async throws -> T {
        let clock = plan.timeToLive == nil ? nil : manager.clock
        let step = step(parameter)
        let manager = manager
        let found = owner.find(
            key, plan: plan, version: version, step: step, manager: manager
        ) {
            Creation(step: step, scope: plan.scope, isAwaited: true)
        }
        switch consume found {
        case .kept(let cell, let object):
            origin = .cached
            return value(in: cell, loaded: object)
        case .stored(let stored):
            origin = .cached
            return storedValue(stored, plan: plan, parameter: parameter)
        case .missing:
            let node = AsyncResolution(
                copy step, scope: plan.scope, manager: manager, parent: parent,
                checksCaptive: plan.checksCaptive)
            return try await run(parameter, in: node, plan: plan, origin: &origin)
        case .waitFor(let creation):
            // A step already on the path would wait for its own creation: a cycle.
            AsyncResolution.check(step, below: parent)
            origin = .cached
            return try await creation.value(for: parent, as: T.self)
        case .create(let creation):
            let node = AsyncResolution(
                step, scope: plan.scope, manager: manager, parent: parent,
                creation: creation, checksCaptive: plan.checksCaptive)
            let body = body(for: parameter, plan: plan, origin: &origin)
            // Handed to the creation's task, which alone uses them from here on: the asker
            // only waits. The closure and parameter are used as a resolve on one task
            // would use them (see `FactoryRegistration`).
            let work = Unchecked((self, body, parameter, plan, owner, clock))
            let create = { @Sendable in
                let (factory, body, parameter, plan, owner, clock) = work.value
                await factory.create(
                    node: node, key: key, body: body, parameter: parameter, plan: plan,
                    owner: owner, clock: clock)
            }
            Task { await create() }
            return try await creation.value(for: parent, as: T.self)
        }
    }

    /// Runs `body` in `node` for its creation, keeps what it makes (or forgets the creation, if
    /// it throws), and resumes the creation's waiters.
    private func create(
        node: AsyncResolution, key: InstanceKey, body: Body, parameter: P,
        plan: ContainerManager.Plan, owner: any InstanceOwner, clock: ContainerManager.Clock?
    ) async {
        let creation = node.creation!
        let value: T
        do {
            value = try await node.make(body, parameter, in: container)
        } catch {
            owner.withInstances { $0.abandon(creation, for: key) }
            creation.finish(.failure(error))
            return
        }
        let made = InstanceTable.Made.of(
            value, in: plan.scope, createdAt: clock?.now() ?? 0,
            disposal: disposal(of: value, plan: plan, parameter: parameter))
        owner.keep(
            made, madeBy: creation, result: value, key: key, scope: plan.scope,
            timeToLive: plan.timeToLive, manager: manager)
    }

    /// The instance a caching scope keeps now, without creating one (`AsyncFactory.warmed()`).
    func keptValue(_ parameter: P) throws(NotWarmedUpError) -> T {
        switch planned(parameter) {
        case .delegate(let parent):
            return try resolved(in: parent).keptValue(parameter)
        case .hit(let cell, let object, _):
            return value(in: cell, loaded: object)
        case .miss(let plan, _):
            return try keptValue(parameter, plan: plan)
        }
    }

    private func keptValue(_ parameter: P, plan: ContainerManager.Plan) throws(NotWarmedUpError)
        -> T
    {
        let step = step(parameter)
        guard let (owner, key) = keeper(for: parameter, plan: plan) else {
            throw NotWarmedUpError(
                factory: step.description, scope: plan.scope, reason: .notCaching)
        }
        let now = plan.timeToLive == nil ? 0 : manager.clock.now()
        var found = InstanceTable.Lookup.missing
        owner.withInstances { table in
            found = table.lookup(
                key, in: plan.scope, timeToLive: plan.timeToLive, now: now, step: step,
                waits: false)
        }
        switch found {
        case .hit(let cell):
            let kept = FoundInstance(hit: cell, isWeak: plan.scope.holdsWeakly)
            if case .kept(let cell, let object)? = kept { return value(in: cell, loaded: object) }
        case .stored(let stored):
            if let value = stored as? T { return value }
        case .waitFor:
            throw NotWarmedUpError(factory: step.description, scope: plan.scope, reason: .inFlight)
        case .missing, .create:
            break
        }
        throw NotWarmedUpError(factory: step.description, scope: plan.scope, reason: .notCreated)
    }
}

/// A synchronous factory asked for an async factory's instance (``AsyncFactory/warmed()``)
/// that its scope does not keep yet.
public struct NotWarmedUpError: Error, CustomStringConvertible {
    /// The reasons a synchronous factory finds no instance.
    public enum Reason: Sendable {
        /// Nothing created it yet (or a reset forgot it).
        case notCreated
        /// Its creation is running now.
        case inFlight
        /// Its scope keeps no instance: `.unique` or `.graph`.
        case notCaching
    }

    /// The factory, as `Container.database<Database>`.
    public let factory: String
    /// The scope's name.
    public let scope: String
    /// Why there is no instance.
    public let reason: Reason

    init(factory: String, scope: Scope, reason: Reason) {
        self.factory = factory
        self.scope = scope.description
        self.reason = reason
    }

    /// What happened and what to do instead.
    public var description: String {
        switch reason {
        case .notCreated:
            "Depot: \(factory) has no instance in its \(scope) scope yet: a synchronous factory "
                + "can use an async factory's instance only once it exists. Call "
                + "`try await container.warmUp(...)` with it first (or resolve it with await)."
        case .inFlight:
            "Depot: \(factory) is still being created (async) in its \(scope) scope: a "
                + "synchronous factory cannot wait for it. Await `warmUp(...)` before resolving "
                + "the synchronous factory."
        case .notCaching:
            "Depot: \(factory) is in the \(scope) scope, which keeps no instance for a "
                + "synchronous factory to use: give it a caching scope (.cached, .singleton...) "
                + "and warm it up, or make the factory that needs it async."
        }
    }
}
