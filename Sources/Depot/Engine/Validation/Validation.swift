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

    /// Counts a validation that starts (`1`) or ends (`-1`) in
    /// ``ContainerManager/validationsRunning``'s word, under its lock: a resolve reads the
    /// task-local only while one runs.
    static func countRunning(_ change: Int) {
        let running = ContainerManager.validationsRunning
        running.withLock { count in
            count += change
            running.word.store(UInt64(count))
        }
    }

    /// The task-local that holds the node of the factory being resolved in a validation.
    @usableFromInline static let binding = TaskLocal<Node?>(wrappedValue: nil)

    /// The node of the factory the current validating resolve is in, if any.
    static var current: Node? {
        ContainerManager.validationsRunning.word.loadRelaxed() != 0 ? binding.get() : nil
    }

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
        /// The problems recorded, as `add` tells them apart.
        var recorded: Set<ValidationProblem.Identity> = []
        /// What the roots reached, with a mark on each factory a problem was found at.
        var graph = DependencyGraph()
        var unchecked: [UncheckedFactory] = []
        /// The roots not started yet, named: unchecked if a stop ends the process.
        var rootsLeft: [String] = []
        /// The first caching factory seen to keep each instance, and an instance of each class.
        var keptObjects: [ObjectIdentifier: Kept] = [:]
        var keptTypes: [ObjectIdentifier: Kept] = [:]
    }

    /// The error an async resolve throws for a stop it met, recorded already: it unwinds the
    /// factories above it to the root.
    struct Stopped: Error, CustomStringConvertible {
        let problem: ValidationProblem
        var description: String { problem.message }
    }

    /// One factory on a validating resolve's path.
    // @unchecked Sendable: immutable once made (`index` and `isRepeat` are set in `init`
    // only); a step's parameter box is never changed.
    @usableFromInline
    final class Node: PathNode, @unchecked Sendable {
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
        /// The bits of the keys on the path to this node (`ResolutionFrame.Resolution.bit`).
        let entered: UInt64
        /// The actor the code at this node runs on: its own, or the nearest above it.
        let runsOn: (any Actor.Type)?
        /// The nearest factory above this node that keeps its instance strongly.
        private let keeperAbove: Node?
        /// The steps of this node's line counted, past `ResolutionFrame.walkedDepth`
        /// (PathIndex.swift).
        private(set) var index: PathIndex?
        /// Whether the step is on the path above it already: a cycle.
        private(set) var isRepeat = false
        /// The step as a path's counts hold it: `nil` for the root's node, and for a step whose
        /// parameter cannot be compared.
        let pathKey: PathKey?
        /// The factory as the dependency graph names it.
        let graphNode: DependencyGraph.Node?

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
            let bit = step.map { ResolutionFrame.Resolution.bit(for: $0.key) } ?? 0
            entered = (parent?.entered ?? 0) | bit
            runsOn = isolation ?? parent?.runsOn
            keeperAbove = parent?.keeper
            pathKey = step.flatMap(PathKey.init)
            graphNode = step.map(DependencyGraph.Node.init)
            (index, isRepeat) = entering(below: parent)
        }

        /// This node and the factories' nodes above it, innermost first.
        var lineage: [Node] { sequence(first: self, next: \.parent).filter { $0.step != nil } }

        /// The steps from the root to this node.
        var path: [ResolutionStep] { lineage.reversed().map { $0.step! } }

        /// The nearest factory at or above this node: itself, unless it has no step.
        var factory: Node? { step != nil ? self : parent?.factory }

        /// The nearest factory at or above this node that keeps its instance strongly.
        var keeper: Node? { step != nil && scope.keepsStrongly ? self : keeperAbove }
    }

    /// Starts a validation of a container of type `container`, with the second copy of Depot
    /// as a problem if there is one.
    init(container: String) {
        self.container = container
        Self.countRunning(1)
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
        if let stop = stop(entering: node, isAsync: factory.body.isAsync) {
            recordStop(stop, at: node)
            node.leave()
            return .stop(stop)
        }
        check(node)
        let placement = scope.placement
        if factory.options?.values.disposer != nil, placement == .none || placement == .graph {
            checkTeardown(at: node)
        }
        return .resolve(copied, node)
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
            defer { entered.leave() }
            return node.validation.onLargerStack(entered) {
                Validation.binding.withValue(entered) { copy.resolve(parameter) }
            }
        case .resolve(let copy, let entered):
            defer { entered.leave() }
            return Validation.binding.withValue(entered) { copy.resolve(parameter) }
        case .stop(let problem):
            node.validation.endProcess(stoppedBy: problem, file: file, line: line)
        }
    }
}
