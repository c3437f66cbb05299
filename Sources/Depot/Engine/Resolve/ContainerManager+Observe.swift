extension ContainerManager {
    /// Checks a plain hit for a captive owner, as `finish` checks a prepared one, in a
    /// container that checks (a debug build's lifetime scope). Not generic: an app compiles it
    /// once, not for every factory.
    @usableFromInline
    @inline(never)
    func checkPlainHit(_ step: ResolutionStep, declared: Scope.Declared?, isSafeInTests: Bool) {
        guard let plan = Scope.Declared.plainPlan(declared, checksCaptive: true, in: self) else {
            return
        }
        // A plain plan neither traces nor records: nothing is kept for a validation.
        _ = observe(step, origin: .cached, plan: plan, entered: false, isSafeInTests: isSafeInTests)
    }

    /// Traces, records, watches and (for a hit that did not enter the path) checks for a
    /// captive owner, as `plan` says: on the thread's resolution path, or on `task`'s for an
    /// async factory. Returns whether the container records the dependency graph.
    @usableFromInline
    func observe(
        _ step: ResolutionStep, origin: ResolutionOrigin, plan: Plan, entered: Bool,
        task: TaskPosition? = nil, isSafeInTests: Bool = false
    ) -> Bool {
        let parent: ResolutionStep?
        var frame: ResolutionFrame?
        if let task {
            if plan.checksCaptive, !entered {
                task.owner?.checkCaptive(step, scope: plan.scope, manager: self)
            }
            parent = task.parent
        } else {
            let current = ResolutionFrame.current
            if plan.checksCaptive, !entered {
                current.checkCaptive(step, scope: plan.scope, manager: self)
            }
            // Entered: the top of the path is `step` itself.
            parent = current.step(below: entered ? 1 : 0) ?? current.base?.step
            frame = current
        }
        if plan.trace {
            let depth =
                task.map { $0.depth - 1 }
                ?? frame!.depth + frame!.ambientDepth - (entered ? 1 : 0)
            let line = TraceLine(
                depth: depth, step: step, origin: origin, scope: plan.scope, logger: logger)
            // Inside a resolution, logged when it ends, outermost first; an async one's as its
            // factories finish.
            if let frame, frame.depth > 0 {
                frame.trace(line)
            } else {
                line.logger(line.text)
            }
        }
        guard plan.records else { return false }
        let (recorded, isWatched) = state.withLock { state in
            // What `resetsDependents` drops with `step`'s factory: the factories of this
            // container whose closures resolved it.
            if state.settings.resetsDependents, let parent, parent.manager == ObjectIdentifier(self)
            {
                state.seldom.dependents[step.key, default: []].insert(parent.key)
            }
            if state.isRecordingDependencies {
                state.seldom.dependencies.add(step, scope: plan.scope, resolvedBy: parent)
            }
            return (state.isRecordingDependencies, state.settings.watcher != nil)
        }
        // Called after the lock: a watcher is user code.
        if isWatched, let watcher {
            let path = (task?.path ?? frame?.path ?? []) + (entered ? [] : [step])
            watcher(
                WatchedResolve(
                    step, path: path, parent: parent, origin: origin,
                    registration: plan.registration, isSafeInTests: isSafeInTests,
                    isInjected: frame?.isInjecting == true))
        }
        return recorded
    }
}

/// Where an async factory's resolution stands on its task's path, for traces, the dependency
/// graph, watchers and captive checks.
@usableFromInline
struct TaskPosition {
    /// The resolution of the factory, which entered the path; or (`isBelow`) the one whose
    /// factory resolves it, `nil` for the outermost.
    let node: AsyncResolution?
    let isBelow: Bool

    /// The resolved factory's depth: 1 for the outermost.
    var depth: Int { (node?.depth ?? 0) + (isBelow ? 1 : 0) }
    /// The step that resolves it, if any.
    var parent: ResolutionStep? { isBelow ? node?.step : node?.parent?.step }
    /// The resolution whose instance would hold it, for a captive check.
    var owner: AsyncResolution? { isBelow ? node : nil }
    /// The steps from the outermost resolution to the one that resolves it, or (entered) to it.
    var path: [ResolutionStep] { node?.path ?? [] }

    /// The position of `node`, which entered the path.
    @usableFromInline
    init(_ node: AsyncResolution) {
        (self.node, isBelow) = (node, false)
    }

    /// The position of a factory resolved by `parent`'s (the outermost when `nil`), without
    /// entering the path.
    @usableFromInline
    init(below parent: AsyncResolution?) {
        (node, isBelow) = (parent, true)
    }
}

/// A factory being resolved above a dependency on its resolution path, for the captive check.
struct CaptiveOwner {
    let step: ResolutionStep
    /// The scope that keeps its instance, and the manager that resolved it.
    let scope: Scope
    let manager: ContainerManager
}

/// The owners above a dependency that the captive check reads: the nearest, and the nearest
/// that keeps its instance strongly, `keeperIndex` steps above the nearest.
struct CaptiveOwners {
    let nearest: CaptiveOwner?
    let keeper: CaptiveOwner?
    let keeperIndex: Int

    init(nearest: CaptiveOwner?, keeper: CaptiveOwner?, keeperIndex: Int) {
        (self.nearest, self.keeper, self.keeperIndex) = (nearest, keeper, keeperIndex)
    }

    /// The owners read from all of them, innermost first.
    init(_ owners: [CaptiveOwner]) {
        let index = owners.firstIndex { $0.scope.keepsStrongly }
        self.init(
            nearest: owners.first, keeper: index.map { owners[$0] }, keeperIndex: index ?? 0)
    }
}

/// A dependency an owner above it would hold captive, as `captives` finds it.
struct Captive {
    let owner: ResolutionStep
    /// ``ValidationProblem/Kind/captiveDependency``, ``ValidationProblem/Kind/shortLivedCaptive``
    /// or ``ValidationProblem/Kind/keptPastReset``.
    let kind: ValidationProblem.Kind
    let message: String
    let fix: String
}

extension ContainerManager {
    /// In debug builds, reports `step`, resolved in `scope` by this container, once per owner,
    /// if an owner above it (`owners`, innermost first) keeps it longer than it is meant to live.
    func checkCaptive(
        _ step: ResolutionStep, scope: Scope, owners: [CaptiveOwner], path: [ResolutionStep]
    ) {
        for captive in captives(step, scope: scope, owners: CaptiveOwners(owners), path: path) {
            warnOnce(captive.message + " " + captive.fix, about: "\(captive.owner) -> \(step)")
        }
    }

    /// The owners above `step`, resolved in `scope` by this container, that keep it longer than
    /// it is meant to live: a lifetime scope's instance kept by an owner that outlives the
    /// scope; if `reportsShortLived` (the container's setting by default), a short-lived one
    /// its nearest owner keeps; and if `reportsKeptPastReset`, a container's instance kept by
    /// a singleton, which outlives the container's resets.
    func captives(
        _ step: ResolutionStep, scope: Scope, owners: CaptiveOwners,
        path: @autoclosure () -> [ResolutionStep], reportsShortLived: Bool? = nil,
        reportsKeptPastReset: Bool = false
    ) -> [Captive] {
        guard let owner = owners.nearest else { return [] }
        var found: [Captive] = []
        let (isLifetimeScope, setting) = state.withLock {
            ($0.isLifetimeScope, $0.settings.reportsShortLivedCaptives)
        }
        let reportsShortLived = reportsShortLived ?? setting
        // Asked for: a `.unique`, `.graph` or weakly held dependency its owner keeps.
        if reportsShortLived, owner.scope.keepsStrongly, scope.livesShorterThanAnOwner {
            found.append(
                Captive(
                    owner: owner.step, kind: .shortLivedCaptive,
                    message: "Depot: captive dependency: \(owner.step) [\(owner.scope)] resolves "
                        + "\(step) [\(scope)] and keeps it as long as itself, longer than the "
                        + "\(scope) scope says.",
                    fix: "Give \(step) a scope that lives at least as long as \(owner.scope), "
                        + "or have \(owner.step) hold a Provider (.provider) or Lazy (.lazy) of "
                        + "it and resolve it where it is used."))
        }
        // Always: an instance of this lifetime scope kept by the nearest owner that keeps one,
        // when that owner outlives the scope (a singleton, or a root container's instance).
        guard scope.placement == .container, scope.keepsStrongly, let keeper = owners.keeper
        else { return found }
        guard isLifetimeScope else {
            if reportsKeptPastReset, keeper.scope.placement == .process {
                found.append(keptPastReset(step, scope: scope, keeper: keeper))
            }
            return found
        }
        guard
            keeper.scope.placement == .process
                || (keeper.manager !== self
                    && !keeper.manager.state.withLock { $0.isLifetimeScope })
        else { return found }
        let path = path()
        let ownerPath = path.dropLast(owners.keeperIndex).map(\.description)
            .joined(separator: " -> ")
        let dependencyPath = (path + [step]).map(\.description).joined(separator: " -> ")
        found.append(
            Captive(
                owner: keeper.step, kind: .captiveDependency,
                message: "Depot: captive dependency: \(keeper.step) [\(keeper.scope)] keeps "
                    + "\(step) [\(scope)], an instance of a lifetime scope, after the scope ends "
                    + "and disposes of it: \(keeper.step) outlives the scope. Owner: "
                    + "\(ownerPath); dependency: \(dependencyPath).",
                fix: "Resolve \(keeper.step) from the lifetime scope with a scope the lifetime "
                    + "scope keeps (.cached), or have it hold a Provider (.provider) of \(step) "
                    + "and resolve it where it is used."))
        return found
    }

    /// `step`, this container's instance in `scope`, kept by `keeper`, a process-wide owner.
    private func keptPastReset(_ step: ResolutionStep, scope: Scope, keeper: CaptiveOwner)
        -> Captive
    {
        Captive(
            owner: keeper.step, kind: .keptPastReset,
            message: "Depot: \(keeper.step) [\(keeper.scope)] keeps \(step) [\(scope)], an "
                + "instance of its container: after the container's reset, the container makes "
                + "a new \(step) while \(keeper.step) keeps the old one.",
            fix: "Give \(step) the \(keeper.scope) scope too, give \(keeper.step) a scope its "
                + "container resets (.cached), or have it hold a Provider (.provider) of \(step).")
    }
}
