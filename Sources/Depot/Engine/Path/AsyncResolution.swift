/// One factory on the path of an async resolution, and through `parent` the path to it: for a
/// task what ``ResolutionFrame`` is for a thread. The task-local ``current`` while the closure
/// runs, so the path and graph follow it across `await`s and into child tasks (and a `Task`,
/// not `Task.detached`). Immutable once current, so child tasks share it; the graph has its
/// own lock.
// @unchecked Sendable: every stored property is a `let` but `index`, set in `init` only, and
// `creation`, set in `init` or by `carry(_:)` before the node is current (where other tasks
// can see it); `ResolutionStep` is a value whose parameter box is never changed; `graph` and
// `index` are Sendable.
@usableFromInline
final class AsyncResolution: PathNode, @unchecked Sendable {
    /// The innermost async factory whose closure the current task runs.
    @TaskLocal static var current: AsyncResolution?

    /// The child containers whose resolves the current task sends to their parents.
    @TaskLocal static var redirected: Set<ObjectIdentifier> = []

    let step: ResolutionStep
    #if DEBUG
        /// The step's scope and manager, for captive-dependency warnings.
        let scope: Scope
        let manager: ContainerManager
    #endif
    let parent: AsyncResolution?
    /// The graph of the outermost resolution, shared by every node below it.
    let graph: ResolutionGraph
    /// 1 for the outermost resolution.
    let depth: Int
    /// The bits of the keys on the path to this node (`ResolutionFrame.Resolution.bit(for:)`):
    /// a step whose bit is not set is not on it, and the cycle check walks no further.
    let entered: UInt64
    /// The creation this step carries out, for a caching or graph scope: what other tasks may
    /// wait for.
    private(set) var creation: Creation?
    /// The steps of this node's line counted, past `ResolutionFrame.walkedDepth`
    /// (PathIndex.swift).
    private(set) var index: PathIndex?

    /// Enters `step` below `parent`, stopping the process on a cycle or a path too deep.
    init(
        _ step: consuming ResolutionStep, scope: borrowing Scope,
        manager: borrowing ContainerManager,
        parent: consuming AsyncResolution?, creation: consuming Creation? = nil,
        checksCaptive: Bool = false
    ) {
        depth = (parent?.depth ?? 0) + 1
        entered = (parent?.entered ?? 0) | ResolutionFrame.Resolution.bit(for: step.key)
        if let parent {
            graph = parent.graph
        } else {
            graph = ResolutionGraph()
            graph.enter()
            ResolutionFrame.noteAsyncStarted()
        }
        // Moved in, not copied: every async resolve makes a node.
        self.step = consume step
        #if DEBUG
            (self.scope, self.manager) = (copy scope, copy manager)
        #endif
        self.parent = consume parent
        self.creation = consume creation
        enter()
        #if DEBUG
            if checksCaptive {
                self.parent?.checkCaptive(self.step, scope: self.scope, manager: self.manager)
            }
        #endif
    }

    /// Stops the process if the step is already on the path above it, or that path is too
    /// deep: before the step's closure runs, so no closure on a cycle runs twice. Past
    /// `walkedDepth`, counts the step on its line's index.
    private func enter() {
        let isRepeat: Bool
        (index, isRepeat) = entering(below: parent)
        guard let parent else { return }
        if isRepeat {
            ResolutionStep.failOnFirstCycle(in: parent.path + [step])
        }
        Self.checkDepth(step, below: parent)
    }

    /// Runs `body` for `parameter` in `container` with this node current.
    @inline(__always)
    nonisolated(nonsending) func make<P, T>(
        _ body: FactoryRegistration<P, T>.Body, _ parameter: P, in container: any ManagedContainer
    ) async throws -> T {
        defer { end() }
        return try await Self.$current.withValue(self) {
            try await body.make(parameter, in: container)
        }
    }

    /// Leaves the node once its resolve has returned or thrown: the outermost resolution's
    /// graph ends with it.
    @inline(never)
    func end() {
        leave()
        if parent == nil { graph.leave() }
    }

    /// Carries out `creation`, a graph's instance: before the node is current.
    func carry(_ creation: Creation) {
        self.creation = creation
    }

    /// The steps from the outermost resolution to this one.
    var path: [ResolutionStep] {
        sequence(first: self, next: \.parent).map(\.step).reversed()
    }

    /// The step as its line's counts hold it.
    var pathKey: PathKey? { PathKey(step) }

    /// The creations on the path: what the current task is making for others to wait for.
    var creations: [Creation] {
        sequence(first: self, next: \.parent).compactMap(\.creation)
    }

    /// Stops the process if `step` is already on the path ending with `parent`, or that path is
    /// too deep: a step that would wait for a creation of its own path.
    static func check(
        _ step: ResolutionStep, below parent: AsyncResolution?
    ) {
        guard let parent else { return }
        if let key = PathKey(step), parent.contains(key) {
            ResolutionStep.failOnFirstCycle(in: parent.path + [step])
        }
        checkDepth(step, below: parent)
    }

    /// Stops the process if the path ending with `parent` is too deep for `step`.
    private static func checkDepth(_ step: ResolutionStep, below parent: AsyncResolution) {
        let limit = ContainerManager.maximumResolutionDepth
        if parent.depth >= limit {
            ResolutionStep.failOnFirstCycle(in: parent.path + [step])
            ResolutionStep.failTooDeep(parent.path + [step], limit: limit)
        }
    }

    /// In debug builds, reports `step` if this node's instance would hold it captive.
    func checkCaptive(_ step: ResolutionStep, scope: Scope, manager: ContainerManager) {
        #if DEBUG
            manager.checkCaptive(step, scope: scope, owners: captiveOwners, path: path)
        #endif
    }

    #if DEBUG
        /// This node and those above it, innermost first, as owners of what it resolves.
        var captiveOwners: [CaptiveOwner] {
            sequence(first: self, next: \.parent).map {
                CaptiveOwner(step: $0.step, scope: $0.scope, manager: $0.manager)
            }
        }
    #endif
}
