// The checks a validation makes at each step, and how it records what they find.

extension Validation {
    /// The problem that keeps `node`'s closure from running, if any.
    func stop(entering node: Node, isAsync: Bool) -> ValidationProblem? {
        let step = node.step!
        if node.isRepeat {
            // The loop once: from the step's first entry to its second.
            let ancestors = node.parent?.lineage ?? []
            let again = ancestors.firstIndex { $0.step!.isSameResolution(as: step) }!
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
        let by =
            node.parent?.factory?.step.map { "is resolved by \($0), which runs " } ?? "is resolved "
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
    func check(_ node: Node) {
        guard let step = node.step, let manager = node.manager else { return }
        let owner = { (node: Node) in
            CaptiveOwner(step: node.step!, scope: node.scope, manager: node.manager!)
        }
        let nearest = node.parent?.factory
        let keeper = node.parent?.keeper
        let owners = CaptiveOwners(
            nearest: nearest.map(owner), keeper: keeper.map(owner),
            keeperIndex: (nearest?.depth ?? 0) - (keeper?.depth ?? 0))
        let found = manager.captives(
            step, scope: node.scope, owners: owners, path: node.parent?.path ?? [],
            reportsShortLived: true, reportsKeptPastReset: true
        ).map { captive in
            problem(captive.kind, node: node, message: captive.message, fix: captive.fix)
        }
        state.withLock { state in
            state.graph.add(
                node.graphNode!, scope: node.scope, resolvedBy: node.parent?.factory?.graphNode)
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
        guard recorded.insert(ValidationProblem.Identity(problem)).inserted else { return }
        problems.append(problem)
        if let name = problem.factory { graph.marked.insert(name) }
    }
}

extension ValidationProblem {
    /// What tells problems apart (see `==`): a set of them finds one found before at once.
    struct Identity: Hashable {
        let kind: Kind
        let path: [String]
        let message: String

        init(_ problem: ValidationProblem) {
            (kind, path, message) = (problem.kind, problem.path, problem.message)
        }
    }
}
