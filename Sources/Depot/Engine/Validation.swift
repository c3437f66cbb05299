import Atomics

// How `validate` resolves a graph without changing it. While a validation runs, the task-local
// `Validation.binding` holds the node of the factory being resolved; a resolve that sees one
// (`FactoryRegistration.resolve`) resolves in a copy of its container's manager instead: the
// same registrations, contexts and settings, empty caches, and singletons in the validation's
// own realm. The copies go when the validation ends and what they kept is disposed, so
// nothing it made reaches a container, and nothing a container keeps is touched.
//
// Every step is checked here, before the engine runs its closure (`enter`): a cycle is the
// step already on the node's lineage, the depth limit is the lineage's length, and a
// synchronous factory declared on an actor the validation does not run on is a breach. So a
// closure never runs twice for a cycle, and never off its actor. The roots run on the
// caller's thread (or, for `validate(roots:)`, in the caller's task, hopping to a root's
// actor), so the caller's task-locals, locks and gates stay its own and no thread is made.
//
// A stop that an async resolve meets is thrown (`Stopped`) and unwinds. A synchronous one
// cannot be: the frames above it are the user's closures, waiting for a value that does not
// exist. Then the whole report so far is written to standard error and the process ends
// (`Validation+Run.swift`): a test that validates a graph that may hold one runs it in a
// child process (an exit test).

/// A validation in progress: the copies of the managers it resolves in, and what it found.
// @unchecked Sendable: `realm` and `container` are immutable; everything else is in `state`,
// a `Locked`.
@usableFromInline
final class Validation: @unchecked Sendable {

    /// How many validations run now: a resolve reads the task-local only while one does. Each
    /// manager keeps a reference to it (``ContainerManager/validations``), so that a resolve
    /// reads it without the global's once-check.
    static let running = ManagedAtomic<Int>(0)

    /// The task-local that holds the node of the factory being resolved in a validation.
    @usableFromInline static let binding = TaskLocal<Node?>(wrappedValue: nil)

    /// Whether any validation runs now.
    static var isRunning: Bool { running.load(ordering: .relaxed) != 0 }

    /// The node of the factory the current validating resolve is in, if any.
    static var current: Node? { isRunning ? binding.get() : nil }

    /// The container type validated, for the report.
    let container: String
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
        var unchecked: [UncheckedFactory] = []
        /// The roots not started yet, named: unchecked if a stop ends the process.
        var rootsLeft: [String] = []
    }

    /// The error an async resolve throws for a stop it met, recorded already: it unwinds the
    /// factories above it to the root.
    struct Stopped: Error, CustomStringConvertible {
        let problem: ValidationProblem
        var description: String { problem.message }
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
        /// The actor the factory's closure runs on: its own, or for the root's node, the actor
        /// the validation runs the root on (`nil`: none known).
        let isolation: (any Actor.Type)?
        /// How many factories from the root to this one.
        let depth: Int
        /// Whether the step's resolve moves to a thread with a larger stack
        /// (Validation+Stack.swift).
        let movesToLargerStack: Bool

        init(
            validation: Validation, parent: Node?, step: ResolutionStep?, scope: Scope,
            manager: ContainerManager?, isolation: (any Actor.Type)?
        ) {
            self.validation = validation
            self.parent = parent
            self.step = step
            self.scope = scope
            self.manager = manager
            self.isolation = isolation
            self.depth = (parent?.depth ?? 0) + (step == nil ? 0 : 1)
            movesToLargerStack = parent?.isolation == LargerStack.self && parent?.step == nil
        }

        /// This node and the factories' nodes above it, innermost first.
        var lineage: [Node] { sequence(first: self, next: \.parent).filter { $0.step != nil } }

        /// The steps from the root to this node.
        var path: [ResolutionStep] { lineage.reversed().map { $0.step! } }

        /// The actor the code at this node runs on: its own, or the nearest above it.
        var runsOn: (any Actor.Type)? {
            sequence(first: self, next: \.parent).lazy.compactMap(\.isolation).first
        }
    }

    /// Starts a validation of a container of type `container`, with the second copy of Depot
    /// as a problem if there is one.
    init(container: String) {
        self.container = container
        Self.running.wrappingIncrement(ordering: .relaxed)
        guard let message = DepotCopies.message else { return }
        let problem = ValidationProblem(
            kind: .secondCopyOfDepot, path: [], factory: nil, message: message,
            fix: "Link Depot once, as one dynamic library every module uses.")
        state.withLock { $0.add(problem) }
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

    /// What entering a step found: go on in the copy, or stop with a recorded problem.
    @usableFromInline
    enum Entered<P, T> {
        case resolve(FactoryRegistration<P, T>, Node)
        case stop(ValidationProblem)
    }

    /// Enters `factory`'s step below `parent`: checks it before its closure can run (a cycle,
    /// the depth limit, a synchronous factory off its actor), records it, and returns the
    /// factory as it resolves in the copy of its manager, with its node; or the problem that
    /// stops it, recorded.
    @usableFromInline
    func enter<P, T>(_ factory: FactoryRegistration<P, T>, _ parameter: P, below parent: Node)
        -> Entered<P, T>
    {
        var copied = factory
        copied.manager = copy(of: factory.manager, in: factory.container)
        let step = copied.step(parameter)
        let scope = copied.manager.scope(of: factory)
        // A synchronous step where the stack runs short resolves below a node that says it
        // moved: on no actor.
        let above =
            !factory.body.isAsync && LargerStack.isNeeded
            ? Node(
                validation: self, parent: parent, step: nil, scope: .unique, manager: nil,
                isolation: LargerStack.self) : parent
        let node = Node(
            validation: self, parent: above, step: step, scope: scope, manager: copied.manager,
            isolation: factory.isolatedTo)
        // The factories above, innermost first: read once for both checks.
        let ancestors = parent.lineage
        if let stop = stop(entering: node, below: ancestors, isAsync: factory.body.isAsync) {
            recordStop(stop, at: node)
            return .stop(stop)
        }
        check(node, below: ancestors)
        return .resolve(copied, node)
    }

    /// The problem that keeps `node`'s closure from running, if any.
    private func stop(entering node: Node, below ancestors: [Node], isAsync: Bool)
        -> ValidationProblem?
    {
        let step = node.step!
        if let again = ancestors.firstIndex(where: { $0.step!.isSameResolution(as: step) }) {
            // The loop once: from the step's first entry to its second.
            let loop = ancestors[...again].reversed().map { $0.step!.description }
            return problem(
                .cycle, node: node,
                message: "Depot: circular dependency: "
                    + (loop + [step.description]).joined(separator: " -> "),
                fix: ResolutionStep.cycleFix)
        }
        let limit = ContainerManager.maximumResolutionDepth
        if node.depth > limit {
            return problem(
                .tooDeep, node: node,
                message: ResolutionStep.tooDeepMessage(node.path, limit: limit),
                fix: "End the recursion, or raise ContainerManager.maximumResolutionDepth if it "
                    + "is meant to go this deep.")
        }
        // A synchronous closure runs where it is resolved; an async one hops to its actor.
        guard !isAsync, let isolation = node.isolation else { return nil }
        let runner = node.parent?.runsOn
        if let runner, ObjectIdentifier(runner) == ObjectIdentifier(isolation) { return nil }
        if isolation == MainActor.self, runner != LargerStack.self, ResolutionFrame.isOnMainActor {
            return nil
        }
        let by = ancestors.first?.step.map { "is resolved by \($0), which runs " } ?? "is resolved "
        let actor = "\(isolation)"
        let place =
            runner == LargerStack.self
            ? "on a thread of the validation's own, where it moved for a larger stack"
            : runner.map { "on \($0)" } ?? "off it"
        return problem(
            .isolationBreach, node: node,
            message: "Depot: \(step) is declared on \(actor) and \(by)\(place): its closure "
                + "would run off \(actor).",
            fix: "Resolve \(step) on \(actor) (resolveOnGlobalActor(_:) or an async factory), "
                + "or declare its property nonisolated.")
    }

    /// Records `node`'s edge and checks it for a captive owner.
    private func check(_ node: Node, below ancestors: [Node]) {
        guard let step = node.step, let manager = node.manager else { return }
        let owners = ancestors.map {
            CaptiveOwner(step: $0.step!, scope: $0.scope, manager: $0.manager!)
        }
        let found = manager.captives(
            step, scope: node.scope, owners: owners, path: node.parent?.path ?? [],
            reportsShortLived: true, reportsKeptPastReset: true
        ).map { captive in
            problem(captive.kind, node: node, message: captive.message, fix: captive.fix)
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

    /// Records `stopped`, a problem that stops the resolve at `node`, and what that leaves
    /// unchecked: what the factories above it would resolve after it is not reached.
    func recordStop(_ stopped: ValidationProblem, at node: Node) {
        let above = node.parent?.path.map(\.description) ?? []
        state.withLock { state in
            state.add(stopped)
            for name in above where !state.unchecked.contains(where: { $0.factory == name }) {
                state.unchecked.append(
                    UncheckedFactory(factory: name, reason: UncheckedFactory.stopped))
            }
        }
    }

    /// Stops a resolve that cannot go on: in a validation, records the problem, writes the
    /// report and ends the process; otherwise stops the process with `message`. `file` and
    /// `line` name the resolve that failed.
    static func stop(
        _ kind: ValidationProblem.Kind, _ message: String, fix: String,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Never {
        guard let node = current else { fatalError(message, file: file, line: line) }
        let stopped = node.validation.problem(kind, node: node, message: message, fix: fix)
        node.validation.recordStop(stopped, at: node)
        node.validation.endProcess(stoppedBy: stopped, file: file, line: line)
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
    /// Records what a factory's closure threw at `node`, unless a factory below it threw it
    /// first (it passes up through every factory above) or it is a stop, recorded already.
    func noteThrown(_ error: any Error, at node: Node) {
        guard !(error is Stopped) else { return }
        let path = node.path.map(\.descriptionWithParameter)
        let thrown = problem(
            .factoryThrew, node: node,
            message: "Depot: \(node.step!) threw: \(error)",
            fix: "Make what \(node.step!) needs available to the validation (register a mock "
                + "for it in the test), or fix what it throws.")
        state.withLock { state in
            let isBelow = state.problems.contains {
                $0.kind == .factoryThrew && $0.path.count > path.count
                    && Array($0.path.prefix(path.count)) == path
            }
            if !isBelow { state.add(thrown) }
        }
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

    /// The value, resolved in the copy of the manager, if this resolve is in a validation; a
    /// stop ends the process, as nothing can be returned to the closures above it.
    /// `file` and `line` name the resolve, for a stop.
    @usableFromInline
    @inline(never)
    func resolveIfValidating(_ parameter: P, file: StaticString, line: UInt) -> T? {
        guard let node = validationNode else { return nil }
        switch node.validation.enter(self, parameter, below: node) {
        case .resolve(let copy, let entered) where entered.movesToLargerStack:
            return node.validation.onLargerStack(entered) {
                Validation.binding.withValue(entered) { copy.resolve(parameter) }
            }
        case .resolve(let copy, let entered):
            return Validation.binding.withValue(entered) { copy.resolve(parameter) }
        case .stop(let problem):
            node.validation.endProcess(stoppedBy: problem, file: file, line: line)
        }
    }
}
