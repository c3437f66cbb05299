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
/// other frames. The graph lives from the outermost resolve's start to its end.
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
        @exclusivity(unchecked) private var owners: [(scope: Scope, manager: ContainerManager)] =
            []
    #endif
    /// The graph the current resolution runs in, once something shares it: made when a `Lazy`
    /// or `Provider` is made, or joined by one made in another resolution.
    @exclusivity(unchecked) private var graph: ResolutionGraph?
    /// The graph-scoped instances of the current resolution while it has no shared `graph`:
    /// this thread's alone, so kept without a lock, and moved into the graph when one is made.
    @exclusivity(unchecked) private var localGraph: [InstanceKey: GraphInstance] = [:]
    /// Whether `graph` was joined, so the resolution that joined it (not the outermost resolve)
    /// ends its part in it.
    @exclusivity(unchecked) private var isGraphJoined = false
    /// The last graph this thread made and nobody kept, emptied for the next resolution: most
    /// resolutions allocate none.
    @exclusivity(unchecked) private var spareGraph: ResolutionGraph?
    /// The creation this thread is blocked on, and its path then, for the cycle message of another
    /// thread; read and written only under `Creation.waitGraph`.
    var waitingOn: Creation?
    var waitingPath: [ResolutionStep] = []

    /// The async resolution whose factory's closure the running resolution started in, if any:
    /// its graph is the one this resolution runs in, and its path goes on below this one's.
    @exclusivity(unchecked) private(set) var base: AsyncResolution?

    /// The child containers whose resolves this thread sends to their parents, with how many
    /// nested delegations asked for it.
    @exclusivity(unchecked) private var redirected: [ObjectIdentifier: Int] = [:]

    /// The plain hits this thread saw, for resolving them again without a lock.
    let hits = HitCache()

    init() {
        steps = .allocate(capacity: capacity)
    }

    deinit {
        steps.deinitialize(count: depth)
        steps.deallocate()
        hits.close()
    }

    /// The frame of the calling thread, made on first use and released when the thread ends.
    @usableFromInline
    static var current: ResolutionFrame {
        currentReference.takeUnretainedValue()
    }

    /// The frame of the calling thread, uncounted: it lives until the thread ends.
    @inline(__always)
    static var currentReference: Unmanaged<ResolutionFrame> {
        if let pointer = depot_current_frame() {
            return Unmanaged<ResolutionFrame>.fromOpaque(pointer)
        }
        return makeCurrent()
    }

    @inline(never)
    private static func makeCurrent() -> Unmanaged<ResolutionFrame> {
        let frame = Unmanaged.passRetained(ResolutionFrame())
        // The key's destructor releases the frame when the thread ends; the thread-local is
        // what resolves read.
        pthread_setspecific(threadKey, frame.toOpaque())
        depot_set_current_frame(frame.toOpaque())
        return frame
    }

    private static let threadKey: pthread_key_t = {
        var key = pthread_key_t()
        #if canImport(Darwin)
            pthread_key_create(&key) { pointer in
                depot_set_current_frame(nil)
                Unmanaged<ResolutionFrame>.fromOpaque(pointer).release()
            }
        #else
            pthread_key_create(&key) { pointer in
                // Cleared first: a destructor that runs later and resolves makes a new frame.
                depot_set_current_frame(nil)
                guard let pointer else { return }
                Unmanaged<ResolutionFrame>.fromOpaque(pointer).release()
            }
        #endif
        return key
    }()

    /// The factories being resolved on this thread, outermost first; how many is `depth`.
    var path: [ResolutionStep] {
        Array(UnsafeBufferPointer(start: steps, count: depth))
    }

    /// The step that resolves the current factory's dependencies, if any.
    var parent: ResolutionStep? { step(below: 0) }

    /// The step `offset` steps below the top of the path (0: the top), if the path is that deep.
    func step(below offset: Int) -> ResolutionStep? {
        depth > offset ? steps[depth - 1 - offset] : nil
    }

    /// Pushes `step`, resolved in `scope` by `manager`, stopping the process if it is already on
    /// the path. In debug builds, also reports a captive dependency.
    @usableFromInline
    func enter(_ step: ResolutionStep, scope: Scope, manager: ContainerManager) {
        #if DEBUG
            checkCaptive(step, scope: scope)
            owners.append((scope, manager))
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

    /// The instance the calling thread's running resolution graph keeps for the plain `.graph`
    /// factory `key` of `manager`, if any. In debug builds, reports it if the factory being
    /// created now would hold it captive, as `enter` would have.
    @usableFromInline
    static func plainGraphInstance(
        manager: Unmanaged<ContainerManager>, key: FactoryKey, containerType: Any.Type
    ) -> KeptGraphInstance? {
        currentReference._withUnsafeGuaranteedRef { frame in
            let kept = frame.graphInstance(for: plainGraphKey(key, manager))
            #if DEBUG
                if kept != nil {
                    frame.checkCaptive(
                        ResolutionStep(
                            manager: ObjectIdentifier(manager.takeUnretainedValue()), key: key,
                            parameter: nil, containerType: containerType),
                        scope: .graph)
                }
            #endif
            return kept
        }
    }

    /// Keeps `value` made by the plain `.graph` factory `key` of `manager` for the rest of the
    /// running resolution.
    @usableFromInline
    func setPlainGraphInstance(
        _ instance: GraphInstance, manager: Unmanaged<ContainerManager>, key: FactoryKey
    ) {
        setGraphInstance(instance, for: Self.plainGraphKey(key, manager))
    }

    /// The graph's key for the instance of a plain `.graph` factory: as `resolveMiss` makes it
    /// for one without a parameter in the key.
    private static func plainGraphKey(_ key: FactoryKey, _ manager: Unmanaged<ContainerManager>)
        -> InstanceKey
    {
        InstanceKey(
            factory: key, owner: ObjectIdentifier(manager.takeUnretainedValue()), parameter: nil)
    }

    /// Pushes `step`, stopping the process if it is already on the path or the path is too deep.
    /// Consuming, so that the step is moved onto the path rather than copied.
    private func push(_ step: consuming ResolutionStep) {
        if depth == 0, let ambient = AsyncResolution.ambient {
            // Started inside an async factory's closure: its graph is this resolution's.
            base = ambient
            graph = ambient.graph
            isGraphJoined = true
        }
        checkPush(step)
        if depth == capacity {
            grow()
        }
        (steps + depth).initialize(to: step)
        depth += 1
    }

    /// Doubles the room for steps.
    private func grow() {
        let grown = UnsafeMutablePointer<ResolutionStep>.allocate(capacity: capacity * 2)
        grown.moveInitialize(from: steps, count: depth)
        steps.deallocate()
        steps = grown
        capacity *= 2
    }

    /// Stops the process if `step` is already on the path or the path is too deep.
    private func checkPush(_ step: ResolutionStep) {
        // Compares the cheap fields in place first, without copying a step out of the array.
        var index = 0
        while index < depth {
            let onPath = steps + index
            if onPath.pointee.manager == step.manager, onPath.pointee.key == step.key,
                onPath.pointee.isSameResolution(as: step)
            {
                failCycle(closingWith: step)
            }
            index += 1
        }
        if depth >= Self.maximumDepth {
            failTooDeep(at: step)
        }
    }

    /// In debug builds, reports `step` (resolved in `scope` from a cache, without entering the
    /// path) if the factory being created now would hold it captive.
    @usableFromInline
    func checkCaptive(_ step: ResolutionStep, scope: Scope) {
        #if DEBUG
            guard let owner = owners.last, let ownerStep = parent else {
                // The outermost factory on this thread: owned by the async factory whose closure
                // resolves it, if any.
                (base ?? (depth == 0 ? AsyncResolution.ambient : nil))?
                    .checkCaptive(step, scope: scope)
                return
            }
            guard owner.scope.keepsStrongly, scope.livesShorterThanAnOwner else { return }
            owner.manager.warnCaptive(
                owner: ownerStep, ownerScope: owner.scope, dependency: step, scope: scope)
        #endif
    }

    /// Pops the current step; the outermost one ends the graph.
    @usableFromInline
    func leave() {
        depth -= 1
        (steps + depth).deinitialize(count: 1)
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

    /// Lets go of the instances of the resolution that just ended, which nothing shared.
    private func endLocalGraph() {
        // Emptied out of place: releasing an instance runs its deinit, which may resolve on
        // this thread and so use `localGraph` again.
        var ended: [InstanceKey: GraphInstance] = [:]
        swap(&ended, &localGraph)
        ended.removeAllForNextGraph()
        localGraph = ended
    }

    /// The graph of the running resolution, made now if it has none yet: what a `Lazy` or
    /// `Provider` made now joins. `nil` outside any resolution.
    func currentGraph() -> ResolutionGraph? {
        if let graph { return graph.share() }
        guard depth > 0 else { return AsyncResolution.ambient?.graph.share() }
        let made = (spareGraph ?? ResolutionGraph()).share()
        spareGraph = nil
        made.enter()
        if !localGraph.isEmpty {
            made.adopt(localGraph)
            localGraph.removeAllForNextGraph()
        }
        graph = made
        return made
    }

    /// Runs `body` in `joined`, the graph a `Lazy` or `Provider` was made in (if any), then goes
    /// back to the graph this thread was in.
    func join<Result>(_ joined: ResolutionGraph?, _ body: () -> Result) -> Result {
        guard let joined, joined !== graph else { return body() }
        let (saved, savedIsJoined) = (graph, isGraphJoined)
        joined.enter()
        (graph, isGraphJoined) = (joined, true)
        defer {
            (graph, isGraphJoined) = (saved, savedIsJoined)
            joined.leave()
        }
        return body()
    }

    /// Sends this thread's resolves on the child container of `manager` to its parent until
    /// `endRedirect`.
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
            || AsyncResolution.isRedirected(manager)
    }

    /// How deep the async resolution this one started in is.
    var ambientDepth: Int { base?.depth ?? 0 }

    /// The graph-scoped instance made earlier in this resolution for `key`.
    func graphInstance(for key: InstanceKey) -> KeptGraphInstance? {
        if let graph {
            return graph.instance(for: key)
        }
        if depth == 0 {
            // Not started yet: inside an async factory's closure, its graph is the one.
            return AsyncResolution.ambient?.graph.instance(for: key)
        }
        return localGraph[key].map { .typed($0) }
    }

    /// Keeps `instance` for the rest of this resolution.
    func setGraphInstance(_ instance: GraphInstance, for key: InstanceKey) {
        if let graph {
            graph.setInstance(instance, for: key)
        } else if depth > 0 {
            localGraph[key] = instance
        }
    }

    private func failCycle(closingWith step: ResolutionStep) -> Never {
        let start = path.firstIndex { $0.isSameResolution(as: step) } ?? 0
        let names = path[start...].map(\.description) + [step.description]
        fatalError("Depot: circular dependency: " + names.joined(separator: " -> "))
    }

    private func failTooDeep(at step: ResolutionStep) -> Never {
        let tail = path.suffix(8).map(\.description) + [step.description]
        fatalError(
            "Depot: resolution nested more than \(Self.maximumDepth) levels deep, most likely "
                + "endless recursion through a parameter that is not Hashable: ... -> "
                + tail.joined(separator: " -> "))
    }

    /// Stops the process for a circle of threads: this thread's path ends with the step it
    /// would wait for, `circle` holds the other threads' steps from there back to one on this
    /// thread's path.
    func failCircularWait(continuingWith circle: [ResolutionStep]) -> Never {
        let closing = circle.last!
        let start = path.firstIndex { $0.isSameResolution(as: closing) } ?? 0
        let names = (path[start...] + circle.dropLast()).map(\.description) + [closing.description]
        fatalError(
            "Depot: circular dependency: " + names.joined(separator: " -> ")
                + " (across threads: each waits for another to finish creating)")
    }
}
