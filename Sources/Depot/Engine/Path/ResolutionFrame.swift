/// The resolution running on one thread: the path of factories being resolved (for cycle
/// checks and trace depth) and the graph scope's instances, which live until the outermost
/// resolve ends, or as long as the async resolution it started in (`base`).
// Only its own thread uses a frame, so it needs no lock. `enter` and `leave` change
// `resolution` in one access each, and no access calls user code or nests another (what the
// outermost `leave` lets go of is released after the access: a deinit may resolve again).
@usableFromInline
final class ResolutionFrame {
    /// What the resolution running on this thread keeps.
    struct Resolution {
        /// The factories being resolved, outermost first.
        var path: [ResolutionStep] = []
        #if DEBUG
            /// The scope and manager of each step on `path`, for captive-dependency warnings.
            var owners: [(scope: Scope, manager: ContainerManager)] = []
        #endif
        /// The graph the resolution runs in, once a `Lazy` or `Provider` shares it.
        var graph: ResolutionGraph?
        /// The graph-scoped instances until there is a shared `graph`: this thread's alone. Room
        /// for three: a graph scope is for instances that several others share.
        var localGraph = ResolutionGraph.Cells(capacity: 4)
        /// Whether `graph` was joined, so the resolution that joined it ends its part in it.
        var isGraphJoined = false
        /// The trace lines of the resolution, logged when it ends.
        var traced: [TraceLine] = []
        /// The async resolution whose factory's closure this one started in.
        var base: AsyncResolution?
        /// How many steps on the path have each of 64 bits (see `bit(for:)`), in two words:
        /// 0 to 2, and 3 for three or more, which stays until the outermost resolve ends. A
        /// step whose bit no step on the path has is not on the path, so the cycle check looks
        /// for it no further.
        var enteredLow: UInt64 = 0
        var enteredHigh: UInt64 = 0
        /// The steps on the path, counted, once the cycle check has looked for a step on a path
        /// deeper than `walkedDepth`, so that the check costs the same at any depth; and the key
        /// of each step on the path, for leaving it. Kept as the path changes (`enter`, `leave`)
        /// until the outermost resolve ends. A count of 0 is a step that left.
        var counted: [PathKey: Int]?
        var countedKeys: [PathKey?] = []
        /// Whether the outermost resolve running now was started by a property wrapper, `Lazy`
        /// or `Provider` (see `inject`), not called directly: a strict test judges the two
        /// apart.
        var isInjecting = false
        /// The innermost creation this thread is carrying out, and through its `outer` the
        /// others: what others may wait for (`WaitGraph`).
        var making: Creation?

        /// The bit of `key` in the counts of steps entered.
        static func bit(for key: FactoryKey) -> UInt64 { 1 << (UInt64(key.nameHash) & 63) }

        /// Whether a step on the path may have `key`.
        @inline(__always)
        func mayHaveEntered(_ key: FactoryKey) -> Bool {
            (enteredLow | enteredHigh) & Self.bit(for: key) != 0
        }

        /// What the outermost resolve's end lets go of (its local graph and shared one), and
        /// the trace lines it logs.
        enum Ended {
            case nothing
            case outermost(ResolutionGraph.Cells, shared: ResolutionGraph?, traced: [TraceLine])
        }

        /// Pushes `step`; the outermost one joins the graph of `ambient`, if any.
        mutating func push(_ step: consuming ResolutionStep, ambient: AsyncResolution?) {
            let bit = Self.bit(for: step.key)
            if path.isEmpty {
                (enteredLow, enteredHigh) = (bit, 0)
                if let ambient {
                    (base, graph, isGraphJoined) = (ambient, ambient.graph, true)
                }
            } else if enteredLow & bit == 0 {
                // One more step with this bit: 0 to 1 and 2 to 3 set the low word, 1 to 2
                // moves it.
                enteredLow |= bit
            } else if enteredHigh & bit == 0 {
                (enteredLow, enteredHigh) = (enteredLow & ~bit, enteredHigh | bit)
            }
            path.append(step)
        }

        /// Pops the top step; the outermost one returns what to release, leave and log.
        mutating func pop() -> Ended {
            let popped = path.removeLast()
            #if DEBUG
                owners.removeLast()
            #endif
            guard path.isEmpty else {
                // One step fewer with its bit: 1 to 0 clears it, 2 to 1 moves it; 3 stays.
                let bit = Self.bit(for: popped.key)
                if enteredHigh & bit == 0 {
                    enteredLow &= ~bit
                } else if enteredLow & bit == 0 {
                    (enteredLow, enteredHigh) = (enteredLow | bit, enteredHigh & ~bit)
                }
                return .nothing
            }
            if base != nil {
                // The async resolution's graph goes on without this thread.
                (base, graph, isGraphJoined) = (nil, nil, false)
            }
            guard graph != nil || !localGraph.isEmpty || !traced.isEmpty else { return .nothing }
            // The local graph is taken out whole: its instances are released after the access
            // (see `leave()`).
            defer { (graph, traced, localGraph) = (nil, [], HashTable()) }
            return .outermost(localGraph, shared: isGraphJoined ? nil : graph, traced: traced)
        }
    }

    /// Kept by a ``Storage`` (ResolutionFrame+Thread.swift), which only this thread reaches.
    private let storage = Storage()

    private var resolution: Resolution {
        _read { yield storage.resolution.pointee }
        _modify { yield &storage.resolution.pointee }
    }

    /// The innermost creation this thread is carrying out, if any.
    var making: Creation? { resolution.making }

    /// How many nested delegations send this thread's resolves on each child to its parent.
    var redirected: [ObjectIdentifier: Int] = [:]

    /// The factories being resolved on this thread, outermost first.
    var path: [ResolutionStep] { resolution.path }

    /// Whether the outermost resolve running now was started by a property wrapper, `Lazy` or
    /// `Provider`.
    var isInjecting: Bool { resolution.isInjecting }

    #if DEBUG
        /// The scope and manager of each factory on the path.
        var ownersOnPath: [(scope: Scope, manager: ContainerManager)] { resolution.owners }
    #endif
    /// The lowest stack address a resolve on this thread may start at (see `enter`).
    lazy var stackLimit = Self.stackLimit()

    /// Whether this is the main thread, for debug builds' check of main-actor factories.
    lazy var isOnMainThread = Self.isMainThread

    /// Marks `creation` as the one this thread carries out, until ``finishCarrying(_:)``: what
    /// others may wait for (`WaitGraph`).
    func startCarrying(_ creation: Creation) {
        resolution.making = creation
    }

    /// Ends ``startCarrying(_:)``: the creation this thread carried out before, if any, is the
    /// innermost again.
    func finishCarrying(_ creation: Creation) {
        resolution.making = creation.outer
    }

    /// How many factories are being resolved on this thread.
    var depth: Int { resolution.path.count }

    /// The async resolution the running resolution started in, if any.
    var base: AsyncResolution? { resolution.base }

    /// The step on top of the path: the factory being resolved.
    @usableFromInline
    var top: ResolutionStep { resolution.path.last! }

    /// Keeps `line` until the resolution ends (see ``TraceLine/log(_:)``).
    func trace(_ line: TraceLine) { resolution.traced.append(line) }

    /// The step `offset` steps below the top of the path (0: the top), if the path is that deep.
    func step(below offset: Int) -> ResolutionStep? {
        let path = resolution.path
        return path.count > offset ? path[path.count - 1 - offset] : nil
    }

    /// Pushes `step`, resolved in `scope` by `manager`, stopping the process on a cycle.
    @usableFromInline
    func enter(
        _ step: consuming ResolutionStep, scope: Scope, manager: ContainerManager,
        checksCaptive: Bool
    ) {
        #if DEBUG
            if checksCaptive {
                checkCaptive(step, scope: scope, manager: manager)
            }
            resolution.owners.append((scope, manager))
        #endif
        let depth = self.depth
        if depth > 0 {
            // Before the step's closure runs: a cycle stops at its first repeat, so no closure
            // on it runs twice (one that holds a lock while it resolves the next would wait
            // for itself). Past `walkedDepth`, the path's steps are counted.
            if resolution.counted == nil, resolution.mayHaveEntered(step.key) {
                checkCycle(step)
            }
            if resolution.counted != nil, resolution.countEntering(step) {
                failOnFirstCycle(closingWith: step)
            }
            if depth >= Self.firstDepthCheck {
                checkDepth(step)
            }
        }
        resolution.push(step, ambient: depth == 0 ? Self.ambient : nil)
    }

    /// How deep a path the cycle check walks; past it, it counts the path's steps.
    static let walkedDepth = 8

    /// Stops the process if `step` is already on a path up to `walkedDepth` deep; past it,
    /// starts counting the path's steps, which `enter` then looks `step` up in.
    private func checkCycle(_ step: ResolutionStep) {
        let path = resolution.path
        guard path.count > Self.walkedDepth else {
            // The key first: a step of another factory is told apart without copying it.
            if path.contains(where: { $0.key == step.key && $0.isSameResolution(as: step) }) {
                failOnFirstCycle(closingWith: step)
            }
            return
        }
        resolution.startCounting()
    }

    /// Pops the current step; the outermost one ends the graph.
    @usableFromInline
    func leave() {
        if resolution.counted != nil {
            resolution.countLeaving()
        }
        guard case .outermost(var local, var shared, let traced) = resolution.pop() else { return }
        // Released here, out of the access to `resolution`: a deinit may resolve on this thread.
        // The emptied slots serve the next resolution.
        local.removeAll(keepingCapacity: true)
        resolution.localGraph = local
        TraceLine.log(traced)
        // Unless a `Lazy` or `Provider` keeps the graph, its instances go with it.
        if var graph = shared.take(), !isKnownUniquelyReferenced(&graph) {
            graph.leave()
        }
    }
}

extension ResolutionFrame {
    /// The graph of the running resolution (made now), for a `Lazy` or `Provider` to join.
    func currentGraph() -> ResolutionGraph? {
        if let graph = resolution.graph { return graph.share() }
        guard depth > 0 else { return Self.ambient?.graph.share() }
        let made = ResolutionGraph().share()
        made.enter()
        if !resolution.localGraph.isEmpty {
            made.adopt(resolution.localGraph)
            // The graph holds them now: none is released here.
            resolution.localGraph.removeAll(keepingCapacity: true)
        }
        resolution.graph = made
        return made
    }

    /// Runs `body`, the resolve of a property wrapper, `Lazy` or `Provider`, on the calling
    /// thread's frame, marked as such (``isInjecting``), in `joined`, the graph it was made in
    /// (if any).
    /// Until a container has a watcher, with no graph to join, that is `body()` alone.
    @usableFromInline
    static func inject<Result>(joining joined: ResolutionGraph?, _ body: () -> Result) -> Result {
        guard joined != nil || ContainerManager.hasWatchers else { return body() }
        return withCurrent { $0.inject(joining: joined, body) }
    }

    private func inject<Result>(joining joined: ResolutionGraph?, _ body: () -> Result) -> Result {
        let wasInjecting = resolution.isInjecting
        resolution.isInjecting = true
        defer { resolution.isInjecting = wasInjecting }
        guard let joined, joined !== resolution.graph else { return body() }
        let (saved, savedIsJoined) = (resolution.graph, resolution.isGraphJoined)
        joined.enter()
        (resolution.graph, resolution.isGraphJoined) = (joined, true)
        defer {
            (resolution.graph, resolution.isGraphJoined) = (saved, savedIsJoined)
            joined.leave()
        }
        return body()
    }

    /// Sends this thread's resolves on the child of `manager` to its parent until `endRedirect`.
    func redirect(_ manager: ContainerManager) {
        redirected[ObjectIdentifier(manager), default: 0] += 1
    }

    func endRedirect(_ manager: ContainerManager) {
        let id = ObjectIdentifier(manager)
        if let count = redirected[id], count > 1 {
            redirected[id] = count - 1
        } else {
            redirected[id] = nil
        }
    }

    /// Whether resolves on the child container of `manager` go to its parent now.
    func isRedirected(_ manager: ContainerManager) -> Bool {
        (!redirected.isEmpty && redirected[ObjectIdentifier(manager)] != nil)
            || (Self.isAsyncStarted.load(ordering: .acquiring)
                && AsyncResolution.redirected.contains(ObjectIdentifier(manager)))
    }

    /// How deep the async resolution this one started in is.
    var ambientDepth: Int { base?.depth ?? 0 }

    /// The graph that the running resolution shares with other threads or tasks, if any: a
    /// `Lazy`'s or `Provider`'s, or the async resolution's it started in.
    var sharedGraph: ResolutionGraph? { resolution.graph }

    /// The graph-scoped instance kept for `key` by a resolution no other thread or task
    /// shares.
    func localGraphInstance(for key: InstanceKey) -> InstanceTable.Cell? {
        resolution.localGraph[key]
    }

    /// Keeps the instance in `cell` for the rest of this resolution: in its shared graph if a
    /// `Lazy` or `Provider` made one while the instance was made.
    func setGraphInstance(_ cell: InstanceTable.Cell, for key: InstanceKey) {
        if let graph = resolution.graph {
            graph.keep(cell, for: key)
        } else {
            resolution.localGraph[key] = cell
        }
    }
}
