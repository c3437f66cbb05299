extension ContainerManager {
    /// Traces, records and (for a hit that did not enter the path) checks for a captive owner,
    /// as `plan` says: on the thread's resolution path, or on `task`'s for an async factory.
    /// Returns whether the container records the dependency graph.
    @usableFromInline
    func observe(
        _ step: ResolutionStep, origin: ResolutionOrigin, plan: Plan, entered: Bool,
        task: TaskPosition? = nil
    ) -> Bool {
        let depth: Int
        let parent: ResolutionStep?
        var frame: ResolutionFrame?
        if let task {
            if plan.checksCaptive, !entered {
                task.owner?.checkCaptive(step, scope: plan.scope, manager: self)
            }
            (depth, parent) = (task.depth - 1, task.parent)
        } else {
            let current = ResolutionFrame.current
            if plan.checksCaptive, !entered {
                current.checkCaptive(step, scope: plan.scope, manager: self)
            }
            // Entered: the top of the path is `step` itself.
            depth = current.depth + current.ambientDepth - (entered ? 1 : 0)
            parent = current.step(below: entered ? 1 : 0) ?? current.base?.step
            frame = current
        }
        if plan.trace {
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
        return state.withLock { state in
            // What `resetsDependents` drops with `step`'s factory: the factories of this
            // container whose closures resolved it.
            if state.settings.resetsDependents, let parent, parent.manager == ObjectIdentifier(self)
            {
                state.seldom.dependents[step.key, default: []].insert(parent.key)
            }
            guard state.isRecordingDependencies else { return false }
            state.seldom.dependencies.add(step, scope: plan.scope, resolvedBy: parent)
            return true
        }
    }
}

/// Where an async factory's resolution stands on its task's path, for traces, the dependency
/// graph and captive checks.
@usableFromInline
struct TaskPosition {
    /// The resolved factory's depth: 1 for the outermost.
    let depth: Int
    /// The step that resolves it, if any.
    let parent: ResolutionStep?
    /// The resolution whose instance would hold it, for a captive check.
    let owner: AsyncResolution?

    /// The position of `node`, which entered the path.
    @usableFromInline
    init(_ node: AsyncResolution) {
        (depth, parent, owner) = (node.depth, node.parent?.step, nil)
    }

    /// The position of a factory resolved by `parent`'s (the outermost when `nil`), without
    /// entering the path.
    @usableFromInline
    init(below parent: AsyncResolution?) {
        (depth, self.parent, owner) = ((parent?.depth ?? 0) + 1, parent?.step, parent)
    }
}
