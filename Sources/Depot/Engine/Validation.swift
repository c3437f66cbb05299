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
// cannot be unwound): each root runs in a task on `ValidationExecutor`, which takes the
// caller's task-locals and whose worker is replaced when one parks, so no thread of the
// cooperative pool is ever lost.

/// A validation in progress: the copies of the managers it resolves in, and what it found.
// @unchecked Sendable: `realm` is Sendable; everything else is in `state`, a `Locked`.
@usableFromInline
final class Validation: @unchecked Sendable {

    /// How many validations run now: a resolve reads the task-local only while one does.
    @usableFromInline static let running = ManagedAtomic<Int>(0)

    /// The task-local that holds the node of the factory being resolved in a validation.
    @usableFromInline static let binding = TaskLocal<Node?>(wrappedValue: nil)

    /// Whether any validation runs now: the one read a resolve makes when none does.
    @inlinable
    static var isRunning: Bool { running.load(ordering: .relaxed) != 0 }

    /// The node of the factory the current validating resolve is in, if any.
    static var current: Node? { isRunning ? binding.get() : nil }

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
        let isolation: (any Actor.Type)?

        init(
            validation: Validation, parent: Node?, step: ResolutionStep?, scope: Scope,
            manager: ContainerManager?, isolation: (any Actor.Type)?
        ) {
            (self.validation, self.parent, self.step, self.scope, self.manager, self.isolation) = (
                validation, parent, step, scope, manager, isolation
            )
        }

        /// This node and the factories' nodes above it, innermost first.
        var lineage: [Node] { sequence(first: self, next: \.parent).filter { $0.step != nil } }

        /// The steps from the root to this node.
        var path: [ResolutionStep] { lineage.reversed().map { $0.step! } }
    }

    /// Starts a validation, with the second copy of Depot as a problem if there is one.
    init() {
        Self.running.wrappingIncrement(ordering: .relaxed)
        guard let message = DepotCopies.message else { return }
        let problem = ValidationProblem(
            kind: .secondCopyOfDepot, path: [], factory: nil, message: message,
            fix: "Link Depot once, as one dynamic library every module uses.")
        state.withLock { $0.add(problem) }
    }

    /// Ends the validation: the copies, and all they keep, go.
    func end() {
        // Released after the lock.
        _ = state.withLock { state in (state.copies, state.copies = [:]).0 }
        Self.running.wrappingDecrement(ordering: .relaxed)
    }

    /// The node above a root: what a resolve reads to know it validates.
    private var rootNode: Node {
        Node(validation: self, parent: nil, step: nil, scope: .unique, manager: nil, isolation: nil)
    }

    /// Runs `body`, a root's resolve, in this validation.
    func inRoot(_ body: () async -> Void) async {
        await Self.binding.withValue(rootNode, operation: body)
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

    /// The copy of `manager`, `container`'s, this validation resolves in, made on first use,
    /// after the container's `autoRegister()` has run for real, as a first resolve's would.
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
            isolation: factory.isolatedTo)
        check(node, isAsync: factory.body.isAsync)
        return (copied, node)
    }

    /// Records `node`'s edge and checks it for an isolation breach and a captive owner.
    private func check(_ node: Node, isAsync: Bool) {
        guard let step = node.step, let manager = node.manager else { return }
        let ancestors = node.parent?.lineage ?? []
        var found: [ValidationProblem] = []
        // A synchronous factory's closure runs where it is resolved: on the executor of the
        // nearest factory above it declared on an actor. An async one hops to its own.
        if !isAsync, let isolation = node.isolation,
            let runner = ancestors.first(where: { $0.isolation != nil }),
            ObjectIdentifier(runner.isolation!) != ObjectIdentifier(isolation)
        {
            let (actor, other) = ("\(isolation)", "\(runner.isolation!)")
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
        let above = node.parent?.path.map(\.description) ?? []
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

extension Validation.State {
    /// Adds `problem`, unless found before, and marks its factory in the graph.
    mutating func add(_ problem: ValidationProblem) {
        guard !problems.contains(problem) else { return }
        problems.append(problem)
        if let name = problem.factory { graph.marked.insert(name) }
    }
}

extension FactoryRegistration {
    /// The node of the validation this resolve is in, unless it resolves in a copy already.
    @usableFromInline
    var validationNode: Validation.Node? {
        manager.isValidationCopy ? nil : Validation.binding.get()
    }

    /// The value, resolved in the copy of the manager, if this resolve is in a validation.
    @usableFromInline
    @inline(never)
    func resolveIfValidating(_ parameter: P) -> T? {
        guard let node = validationNode else { return nil }
        let (copy, entered) = node.validation.enter(self, parameter, below: node)
        return Validation.binding.withValue(entered) { copy.resolve(parameter) }
    }
}
