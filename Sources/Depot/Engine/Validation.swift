import Atomics

// How `validate` resolves a graph without changing it. While a validation runs, the task-local
// `Validation.current` holds the node of the factory being resolved; a resolve that sees one
// (`FactoryRegistration.resolve`) resolves in a copy of its container's manager instead: the
// same registrations, contexts and settings, empty caches, and singletons in the validation's
// own realm. The copies and all they keep go when the validation ends, so nothing it made
// reaches a container, and nothing a container keeps is touched. Each resolve adds a node: the
// path from the root, from which the checks of isolation and captive dependencies and the
// walked graph are made. Where the engine would stop the process (`stop`), a validating
// resolve records the problem instead and parks its thread for good (a synchronous resolve
// cannot be unwound): each root runs on a thread of its own, an async root in a task on
// `ValidationExecutor`, whose worker is replaced when one parks, so no thread of the
// cooperative pool is ever lost.

/// A validation in progress: the copies of the managers it resolves in, and what it found.
// @unchecked Sendable: `realm` is Sendable; everything else is in `state`, a `Locked`.
@usableFromInline
final class Validation: @unchecked Sendable {
    /// How many validations run now: a resolve reads the task-local only while one does.
    @usableFromInline static let running = ManagedAtomic<Int>(0)

    /// The task-local that holds the node of the factory being resolved in a validation.
    @usableFromInline static let binding = TaskLocal<Node?>(wrappedValue: nil)

    /// The node of the factory the current validating resolve is in, if any.
    @inlinable
    static var current: Node? {
        running.load(ordering: .relaxed) == 0 ? nil : binding.get()
    }

    /// Where the copies keep their singletons and other process-wide instances.
    let realm = SingletonRealm()
    let state = Locked(State())

    struct State {
        /// Each manager resolved in, by identity, with its copy; the original is kept so that
        /// its identity is not reused while the validation runs.
        var copies: [ObjectIdentifier: (original: ContainerManager, copy: ContainerManager)] = [:]
        var problems: [ValidationProblem] = []
        /// What the roots reached, with a mark on each factory a problem was found at.
        var graph = DependencyGraph()
        var unchecked: [String] = []
        /// The root being resolved now, told when it ends or stops.
        var run: Run?
    }

    /// One factory on a validating resolve's path.
    // @unchecked Sendable: immutable; a step's parameter box is never changed.
    @usableFromInline
    final class Node: @unchecked Sendable {
        @usableFromInline let validation: Validation
        let parent: Node?
        /// `nil` for the root's node, above the root factory.
        let step: ResolutionStep?
        let scope: Scope
        let manager: ContainerManager?
        /// The actor whose executor the factory's closure runs on, if it is declared on one.
        let isolation: (any Actor)?

        init(
            validation: Validation, parent: Node?, step: ResolutionStep?, scope: Scope,
            manager: ContainerManager?, isolation: (any Actor)?
        ) {
            self.validation = validation
            self.parent = parent
            self.step = step
            self.scope = scope
            self.manager = manager
            self.isolation = isolation
        }

        /// The steps from the root to this node.
        var path: [ResolutionStep] {
            sequence(first: self, next: \.parent).compactMap(\.step).reversed()
        }
    }

    /// Starts a validation of `container`'s graph.
    init(_ container: some ManagedContainer) {
        Self.running.wrappingIncrement(ordering: .relaxed)
        // What a first resolve would do, done for real, outside the validation.
        container.manager.autoRegisterIfNeeded(container)
        if let copies = DepotCopies.secondCopy() {
            state.withLock { $0.add(copies) }
        }
    }

    /// Ends the validation: the copies, and all they keep, go.
    func end() {
        let copies = state.withLock { state in
            defer { state.copies = [:] }
            return state.copies
        }
        _ = copies
        Self.running.wrappingDecrement(ordering: .relaxed)
    }

    /// Starts the run of the next root.
    func start() -> Run {
        let run = Run()
        state.withLock { $0.run = run }
        return run
    }

    /// Runs `body`, a root's resolve, in this validation.
    func inRoot(_ body: () -> Void) {
        let node = Node(
            validation: self, parent: nil, step: nil, scope: .unique, manager: nil,
            isolation: nil)
        Self.binding.withValue(node, operation: body)
    }

    /// Runs `body`, a root's resolve, in this validation.
    func inRoot(_ body: () async -> Void) async {
        let node = Node(
            validation: self, parent: nil, step: nil, scope: .unique, manager: nil,
            isolation: nil)
        await Self.binding.withValue(node, operation: body)
    }

    /// Notes that a synchronous validation was given an async root, which it cannot resolve.
    func needsAsync<C>(_ root: ValidationRoot<C>) {
        state.withLock {
            $0.unchecked.append(
                "an async factory of \(C.self): validate it with await validate(roots:)")
        }
    }

    /// What the validation found.
    func report<C: ManagedContainer>(of container: C) -> ValidationReport {
        state.withLock { state in
            ValidationReport(
                container: "\(C.self)", problems: state.problems, unchecked: state.unchecked,
                graph: state.graph)
        }
    }

    /// The copy of `manager`, `container`'s, this validation resolves in, made on first use.
    func copy(of manager: ContainerManager, in container: any ManagedContainer)
        -> ContainerManager
    {
        let id = ObjectIdentifier(manager)
        if let made = state.withLock({ $0.copies[id]?.copy }) { return made }
        Self.binding.withValue(nil) { _ = manager.autoRegisterIfNeeded(container) }
        let copy = ContainerManager(validating: manager, realm: realm)
        return state.withLock { state in
            if let made = state.copies[id]?.copy { return made }
            state.copies[id] = (manager, copy)
            return copy
        }
    }

    /// Enters `factory`'s step below `parent`: checks it, records it, and returns the factory
    /// as it resolves in the copy of its manager, with its node.
    @usableFromInline
    func enter<P, T>(_ factory: FactoryRegistration<P, T>, _ parameter: P, below parent: Node)
        -> (FactoryRegistration<P, T>, Node)
    {
        var copied = factory
        copied.manager = copy(of: factory.manager, in: factory.container)
        let step = copied.step(parameter)
        let scope = copied.manager.scope(of: factory)
        let node = Node(
            validation: self, parent: parent, step: step, scope: scope, manager: copied.manager,
            isolation: factory.isolation)
        check(node, isAsync: factory.isAsync)
        return (copied, node)
    }

    /// Records `node`'s edge and checks it for an isolation breach and a captive owner.
    private func check(_ node: Node, isAsync: Bool) {
        guard let step = node.step, let manager = node.manager else { return }
        let ancestors = Array(sequence(first: node.parent, next: { $0?.parent }).compactMap { $0 })
            .filter { $0.step != nil }
        var found: [ValidationProblem] = []
        // A synchronous factory's closure runs where it is resolved: on the executor of the
        // nearest factory above it declared on an actor. An async one hops to its own.
        if !isAsync, let isolation = node.isolation,
            let runner = ancestors.first(where: { $0.isolation != nil }),
            runner.isolation! !== isolation
        {
            let actor = String(describing: Swift.type(of: isolation))
            let other = String(describing: Swift.type(of: runner.isolation!))
            found.append(
                problem(
                    .isolationBreach, node: node,
                    message: "Depot: \(step) is declared on \(actor) and is resolved by "
                        + "\(runner.step!), which runs on \(other): its closure would run off "
                        + "\(actor).",
                    fix: "Resolve \(step) on \(actor) (resolveOnGlobalActor(_:) or an async "
                        + "factory), or declare its property nonisolated."))
        }
        let owners = ancestors.map {
            CaptiveOwner(step: $0.step!, scope: $0.scope, manager: $0.manager!)
        }
        for captive in manager.captives(
            step, scope: node.scope, owners: owners, path: node.parent?.path ?? [],
            reportsShortLived: true)
        {
            found.append(
                problem(
                    captive.isShortLived ? .shortLivedCaptive : .captiveDependency, node: node,
                    message: captive.message, fix: captive.fix))
        }
        state.withLock { state in
            state.graph.add(step, scope: node.scope, resolvedBy: node.parent?.step)
            for problem in found { state.add(problem) }
        }
    }

    /// A problem found at `node`.
    func problem(
        _ kind: ValidationProblem.Kind, node: Node, message: String, fix: String
    ) -> ValidationProblem {
        ValidationProblem(
            kind: kind, path: node.path.map(\.descriptionWithParameter),
            factory: node.step?.description, message: message, fix: fix)
    }

    /// Records a problem that stops the resolve at `node`, and what that leaves unchecked.
    func recordStop(_ kind: ValidationProblem.Kind, at node: Node, message: String, fix: String) {
        let stopped = problem(kind, node: node, message: message, fix: fix)
        // The factories above the stop did not finish: what they would resolve after it is
        // not reached.
        let above = node.path.dropLast().map(\.description)
        let run = state.withLock { state -> Run? in
            state.add(stopped)
            for name in above where !state.unchecked.contains(name) {
                state.unchecked.append(name)
            }
            return state.run
        }
        run?.finish()
    }

    /// Stops a resolve that cannot go on: in a validation, records the problem and parks the
    /// calling thread for good; otherwise stops the process with `message`.
    static func stop(_ kind: ValidationProblem.Kind, _ message: String, fix: String) -> Never {
        guard let node = current else { fatalError(message) }
        node.validation.recordStop(kind, at: node, message: message, fix: fix)
        parkCurrentThread()
    }

    /// Records, in a validation, a problem that lets the resolve go on; returns whether it did.
    static func note(_ kind: ValidationProblem.Kind, _ message: String, fix: String) -> Bool {
        guard let node = current else { return false }
        let found = node.validation.problem(kind, node: node, message: message, fix: fix)
        node.validation.state.withLock { $0.add(found) }
        return true
    }
}

extension Validation {
    /// A registered factory that needs no parameter, as `validate()` resolves it in a container.
    struct Declaration {
        let name: String
        let resolve: ((any ManagedContainer) -> Void)?
        let resolveAsync: ((any ManagedContainer) async throws -> Void)?
    }

    /// The container a kept ``Declaration`` names instead of its own, which keeps it: the
    /// validated container takes its place when it is resolved.
    static let placeholder: any ManagedContainer = Placeholder()

    private final class Placeholder: ManagedContainer {
        let manager = ContainerManager(realm: nil)
    }
}

extension FactoryRegistration {
    /// The factory, with `body` registered, as `validate()` resolves it; `nil` if it needs a
    /// parameter.
    func declaration(_ body: Body) -> Validation.Declaration? {
        guard P.self == Void.self else { return nil }
        var kept = self
        kept.body = body
        kept.container = Validation.placeholder
        kept.manager = Validation.placeholder.manager
        // Used as the registration it copies is: by resolves, one at a time per root.
        let unchecked = Unchecked(kept)
        func inContainer(_ container: any ManagedContainer) -> Self {
            var factory = unchecked.value
            factory.container = container
            factory.manager = container.manager
            return factory
        }
        let name = step(nil).description
        if isAsync {
            return .init(
                name: name, resolve: nil,
                resolveAsync: { _ = try await inContainer($0).resolveAsync(() as! P) })
        }
        return .init(
            name: name, resolve: { _ = inContainer($0).resolve(() as! P) }, resolveAsync: nil)
    }
}

extension ContainerManager {
    /// The registered factories that need no parameter, ordered by name.
    func registeredDeclarations() -> [Validation.Declaration] {
        state.withLock { Array($0.seldomUsed?.declarations.values ?? [:].values) }
            .sorted { $0.name < $1.name }
    }
}

extension Validation.State {
    /// Adds `problem`, unless found before, and marks its factory in the graph.
    mutating func add(_ problem: ValidationProblem) {
        guard !problems.contains(problem) else { return }
        problems.append(problem)
        if let name = problem.factory { graph.marked.insert(name) }
    }
}

extension Validation {
    /// How one root's resolve ended: the validator waits for it to finish or stop.
    // @unchecked Sendable: `isEnded` and `waiter` are used only under `lock`.
    final class Run: @unchecked Sendable {
        private let lock = Locked(())
        private let condition = Condition()
        private var isEnded = false
        private var waiter: CheckedContinuation<Void, Never>?

        /// Ends the run; only the first call counts.
        func finish() {
            let waiter = lock.withLock { _ -> CheckedContinuation<Void, Never>? in
                guard !isEnded else { return nil }
                isEnded = true
                condition.broadcast()
                defer { self.waiter = nil }
                return self.waiter
            }
            waiter?.resume()
        }

        /// Blocks the calling thread until the run ends.
        func wait() {
            lock.wait(on: condition) { isEnded }
        }

        /// Suspends until the run ends.
        func ended() async {
            await withCheckedContinuation { continuation in
                let isEnded = lock.withLock { _ in
                    if !self.isEnded { waiter = continuation }
                    return self.isEnded
                }
                if isEnded { continuation.resume() }
            }
        }
    }
}

extension ContainerManager {
    /// A copy of `original` for a validation: its registrations, contexts, parent and settings
    /// (with tracing off and logging to nowhere), empty caches, and singletons in `realm`.
    convenience init(validating original: ContainerManager, realm: SingletonRealm) {
        self.init(realm: realm, isValidationCopy: true)
        let inherited = original.inheritance
        let isLifetimeScope = original.state.withLock { $0.isLifetimeScope }
        state.withLock { state in
            var settings = inherited.settings.value
            settings.trace = false
            settings.logger = { _ in }
            state.settings = settings
            state.registeredKeys = inherited.registeredKeys
            state.registrations = inherited.registrations
            state.parent = inherited.parent
            state.isAutoRegistered = true
            state.isLifetimeScope = isLifetimeScope
            state.bind(realm)
        }
    }

    /// The scope `factory` resolves in here: registered, declared or this container's default.
    func scope<P, T>(of factory: FactoryRegistration<P, T>) -> Scope {
        state.withLock { state in
            winningOption(
                declared: factory.declaredScope?.scope,
                registered: state.registrations[factory.key]?.scope, isOnce: factory.isOnce)
                ?? state.settings.defaultScope ?? Scope.unique
        }
    }
}
