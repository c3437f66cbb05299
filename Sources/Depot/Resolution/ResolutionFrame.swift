internal import CDepotAtomics

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The state of the resolution running on one thread: the path of factories being resolved
/// (for cycle checks and trace depth) and the graph scope's instances.
///
/// A resolve is synchronous, so it starts and ends on one thread; a thread-local frame is
/// therefore the resolution's own, and concurrent resolutions on other threads or tasks have
/// other frames. The graph lives from the outermost resolve's start to its end, unless the
/// resolution started inside an async factory's closure: then it runs in that async
/// resolution's graph (`base`), which lives as long as the async one.
@usableFromInline
final class ResolutionFrame {
    /// A resolution nested this deep is taken for an endless recursion through parameters that
    /// cannot be compared.
    static let maximumDepth = 256

    // @exclusivity(unchecked) on the properties a resolve changes: only the owning thread uses
    // them, and never inside another access to them, so the runtime's dynamic exclusivity check
    // (a thread-local access set, on every push and pop) would find nothing.
    /// The path: `depth` steps from `steps`, outermost first, in room for `capacity`. Kept by
    /// hand rather than in an array, so that a push or pop checks no uniqueness.
    @exclusivity(unchecked) private var steps: UnsafeMutablePointer<ResolutionStep>
    @exclusivity(unchecked) private(set) var depth = 0
    @exclusivity(unchecked) private var capacity = 16
    #if DEBUG
        /// The scope and manager of each step on `path`, for captive-dependency warnings.
        @exclusivity(unchecked) var owners: [(scope: Scope, manager: ContainerManager)] =
            []
    #endif
    /// The graph the current resolution runs in, once something shares it: made when a `Lazy`
    /// or `Provider` is made, or joined by one made in another resolution.
    @exclusivity(unchecked) var graph: ResolutionGraph?
    /// The graph-scoped instances of the current resolution while it has no shared `graph`:
    /// this thread's alone, so kept without a lock, and moved into the graph when one is made.
    @exclusivity(unchecked) var localGraph = LocalGraph()
    /// Whether `graph` was joined, so the resolution that joined it (not the outermost resolve)
    /// ends its part in it.
    @exclusivity(unchecked) var isGraphJoined = false
    /// The last graph this thread made and nobody kept, emptied for the next resolution: most
    /// resolutions allocate none.
    @exclusivity(unchecked) var spareGraph: ResolutionGraph?
    /// The emptied table dictionaries of the last lifetime scope that went on this thread, for
    /// the next one it makes (see `takeSpareStorage()`), or for a reused state to take in
    /// exchange for its own as its scope ends (see `ContainerManager.deinit`).
    @exclusivity(unchecked) var spareStorage: InstanceTable.CellMap?

    /// The creation this thread is blocked on, and its path then, for the cycle message of another
    /// thread; read and written only under `Creation.waitGraph`.
    var waitingOn: Creation?
    var waitingPath: [ResolutionStep] = []

    /// The async resolution whose factory's closure the running resolution started in, if any:
    /// its graph is the one this resolution runs in, and its path goes on below this one's.
    @exclusivity(unchecked) var base: AsyncResolution?

    /// The child containers whose resolves this thread sends to their parents, with how many
    /// nested delegations asked for it.
    @exclusivity(unchecked) var redirected: [ObjectIdentifier: Int] = [:]

    /// The plain hits this thread saw, for resolving them again without a lock.
    let hits = HitCache()

    /// A number of this thread's, for structures split in shards so that threads do not all
    /// write one (see `Scope.track`).
    let shard = Int(truncatingIfNeeded: depot_atomic_add(frameCount, 1))

    init() {
        steps = .allocate(capacity: capacity)
    }

    deinit {
        steps.deinitialize(count: depth)
        steps.deallocate()
        hits.close()
    }

    /// The factories being resolved on this thread, outermost first; how many is `depth`.
    var path: [ResolutionStep] {
        Array(UnsafeBufferPointer(start: steps, count: depth))
    }

    /// The step on top of the path: the factory being resolved, entered by the caller. Read in
    /// place, with no optional made and copied.
    @usableFromInline
    var top: ResolutionStep {
        precondition(depth > 0, "Depot: no factory is being resolved")
        return steps[depth - 1]
    }

    /// The step `offset` steps below the top of the path (0: the top), if the path is that deep.
    func step(below offset: Int) -> ResolutionStep? {
        depth > offset ? steps[depth - 1 - offset] : nil
    }

    /// Pushes `step`, resolved in `scope` by `manager`, stopping the process if it is already on
    /// the path. In debug builds, also reports a captive dependency.
    ///
    /// `scope` and `manager` are passed uncounted (the caller's resolve holds them): a release
    /// build does not use them, and counting them cost two retains and two releases.
    @usableFromInline
    func enter(
        _ step: consuming ResolutionStep, scope: Unmanaged<Scope>,
        manager: Unmanaged<ContainerManager>
    ) {
        #if DEBUG
            checkCaptive(step, scope: scope.takeUnretainedValue())
            owners.append((scope.takeUnretainedValue(), manager.takeUnretainedValue()))
        #endif
        push(step)
    }

    /// Pushes the step of a plain `.unique` (or, with `isGraph`, `.graph`) factory of `manager`
    /// on the calling thread's frame, as `enter` does, and returns the frame, uncounted, for
    /// `leave()`.
    ///
    /// Takes the step's parts, so that the step is made here and moved onto the path, not
    /// copied.
    @usableFromInline
    static func enterPlain(
        isGraph: Bool, manager: Unmanaged<ContainerManager>, key: FactoryKey,
        parameter: ResolutionParameter?, containerType: Any.Type
    ) -> Unmanaged<ResolutionFrame> {
        let reference = currentReference
        reference._withUnsafeGuaranteedRef { frame in
            let step = ResolutionStep(
                manager: ObjectIdentifier(manager.takeUnretainedValue()), key: key,
                parameter: parameter, containerType: containerType)
            #if DEBUG
                let scope: Scope = isGraph ? .graph : .unique
                frame.checkCaptive(step, scope: scope)
                frame.owners.append((scope, manager.takeUnretainedValue()))
            #endif
            frame.push(step)
        }
        return reference
    }

    /// Pushes `step`, stopping the process if it is already on the path or the path is too deep.
    /// Consuming, so that the step is moved onto the path rather than copied, and stored there
    /// before the cycle check reads it in place. Inlined into `enter` and `enterPlain`: the
    /// rare work (joining an async resolution's graph, growing, checking) is in calls.
    @inline(__always)
    private func push(_ step: consuming ResolutionStep) {
        if depth == 0 {
            joinAmbient()
        }
        if depth == capacity {
            grow()
        }
        let top = steps + depth
        top.initialize(to: step)
        // Checked at depths 8, 16, 32...: a cycle repeats for ever, so one of them finds it, and
        // a resolution as shallow as most are pays nothing for the check.
        if depth >= Self.firstCycleCheck, depth & (depth - 1) == 0 {
            checkPush(top.pointee)
        }
        depth += 1
    }

    /// Joins the graph of the async factory whose closure the resolution starting now runs in,
    /// if any.
    private func joinAmbient() {
        guard let ambient = AsyncResolution.ambient else { return }
        base = ambient
        graph = ambient.graph
        isGraphJoined = true
    }

    /// Doubles the room for steps.
    private func grow() {
        let grown = UnsafeMutablePointer<ResolutionStep>.allocate(capacity: capacity * 2)
        grown.moveInitialize(from: steps, count: depth)
        steps.deallocate()
        steps = grown
        capacity *= 2
    }

    /// The depth of the first check for a cycle (see `push`): deeper than most resolutions.
    static let firstCycleCheck = 8

    /// Stops the process if `step` is already on the path or the path is too deep.
    private func checkPush(_ step: ResolutionStep) {
        // Compares the cheap fields in place first, without copying a step out of the array.
        var index = 0
        while index < depth {
            let onPath = steps + index
            if onPath.pointee.manager == step.manager, onPath.pointee.key == step.key,
                onPath.pointee.isSameResolution(as: step)
            {
                failOnFirstCycle(closingWith: step)
            }
            index += 1
        }
        if depth >= Self.maximumDepth {
            failOnFirstCycle(closingWith: step)
            failTooDeep(at: step)
        }
    }

    /// Pops the current step; the outermost one ends the graph.
    @usableFromInline
    func leave() {
        depth -= 1
        // Moved out and dropped here, where the type is known: `deinitialize(count:)` went
        // through the step's value witness.
        _ = (steps + depth).move()
        #if DEBUG
            owners.removeLast()
        #endif
        guard depth == 0 else { return }
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
            if isKnownUniquelyReferenced(&ended) {
                // No `Lazy` or `Provider` keeps the graph: emptied for the next resolution,
                // without first holding its instances weakly for nobody.
                ended.removeAll()
                spareGraph = ended
            } else {
                ended.leave()
            }
        }
    }
}

/// How many frames were made: each thread's `shard`.
// nonisolated(unsafe): only ever read and written with atomic operations.
nonisolated(unsafe) private let frameCount: UnsafeMutablePointer<UInt64> = {
    let counter = UnsafeMutablePointer<UInt64>.allocate(capacity: 1)
    counter.initialize(to: 0)
    return counter
}()
