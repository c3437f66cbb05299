/// The state of the resolution running on one thread: the path of factories being resolved
/// (for cycle checks and trace depth) and the graph scope's instances.
///
/// A resolve is synchronous, so it starts and ends on one thread; a thread-local frame is
/// therefore the resolution's own, and concurrent resolutions on other threads or tasks have
/// other frames. The graph lives from the outermost resolve's start to its end, unless the
/// resolution started inside an async factory's closure: then it runs in that async
/// resolution's graph (`base`), which lives as long as the async one.
// Only its own thread uses a frame (see `current`), so it needs no lock.
@usableFromInline
final class ResolutionFrame {
    /// The factories being resolved on this thread, outermost first.
    private(set) var path: [ResolutionStep] = []
    #if DEBUG
        /// The scope and manager of each step on `path`, for captive-dependency warnings.
        var owners: [(scope: Scope, manager: ContainerManager)] = []
    #endif
    /// The graph the current resolution runs in, once something shares it: made when a `Lazy`
    /// or `Provider` is made, or joined by one made in another resolution.
    var graph: ResolutionGraph?
    /// The graph-scoped instances of the current resolution while it has no shared `graph`:
    /// this thread's alone, so kept without a lock, and moved into the graph when one is made.
    var localGraph: [InstanceKey: Any] = [:]
    /// Whether `graph` was joined, so the resolution that joined it (not the outermost resolve)
    /// ends its part in it.
    var isGraphJoined = false

    /// The creation this thread is blocked on, and its path then, for the cycle message of another
    /// thread; read and written only under `Creation.waitGraph`.
    var waitingOn: Creation?
    var waitingPath: [ResolutionStep] = []

    /// The async resolution whose factory's closure the running resolution started in, if any:
    /// its graph is the one this resolution runs in, and its path goes on below this one's.
    var base: AsyncResolution?

    /// The child containers whose resolves this thread sends to their parents, with how many
    /// nested delegations asked for it.
    var redirected: [ObjectIdentifier: Int] = [:]

    /// How many factories are being resolved on this thread.
    var depth: Int { path.count }

    /// The step on top of the path: the factory being resolved, entered by the caller.
    @usableFromInline
    var top: ResolutionStep {
        guard let top = path.last else {
            preconditionFailure("Depot: no factory is being resolved")
        }
        return top
    }

    /// The step `offset` steps below the top of the path (0: the top), if the path is that deep.
    func step(below offset: Int) -> ResolutionStep? {
        depth > offset ? path[depth - 1 - offset] : nil
    }

    /// Pushes `step`, resolved in `scope` by `manager`, stopping the process if it is already on
    /// the path. In debug builds, also reports a captive dependency.
    @usableFromInline
    func enter(_ step: ResolutionStep, scope: Scope, manager: ContainerManager) {
        #if DEBUG
            checkCaptive(step, scope: scope)
            owners.append((scope, manager))
        #endif
        let depth = path.count
        if depth == 0 {
            joinAmbient()
        }
        // Checked at depths 8, 16, 32...: a cycle repeats for ever, so one of them finds it, and
        // a resolution as shallow as most are pays nothing for the check.
        if depth >= Self.firstCycleCheck, depth & (depth - 1) == 0 {
            checkPush(step)
        }
        path.append(step)
    }

    /// Joins the graph of the async factory whose closure the resolution starting now runs in,
    /// if any.
    private func joinAmbient() {
        guard let ambient = AsyncResolution.ambient else { return }
        base = ambient
        graph = ambient.graph
        isGraphJoined = true
    }

    /// The depth of the first check for a cycle (see `enter`): deeper than most resolutions.
    static let firstCycleCheck = 8

    /// Stops the process if `step` is already on the path or the path is too deep.
    private func checkPush(_ step: ResolutionStep) {
        if path.contains(where: { $0.isSameResolution(as: step) }) {
            failOnFirstCycle(closingWith: step)
        }
        let limit = ContainerManager.maximumResolutionDepth
        if depth >= limit {
            failOnFirstCycle(closingWith: step)
            ResolutionStep.failTooDeep(path + [step], limit: limit)
        }
    }

    /// Pops the current step; the outermost one ends the graph.
    @usableFromInline
    func leave() {
        path.removeLast()
        #if DEBUG
            owners.removeLast()
        #endif
        guard path.isEmpty else { return }
        if base != nil {
            // The async resolution's graph goes on without this thread.
            (base, graph, isGraphJoined) = (nil, nil, false)
            return
        }
        if !localGraph.isEmpty {
            endLocalGraph()
        }
        if !isGraphJoined, var ended = graph {
            graph = nil
            // Unless a `Lazy` or `Provider` keeps the graph, its instances go with it.
            if !isKnownUniquelyReferenced(&ended) {
                ended.leave()
            }
        }
    }
}
