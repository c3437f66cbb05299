// How a resolution path stops the process (cycles, recursion too deep, circles of threads),
// and the captive dependencies it reports.
extension ResolutionFrame {
    /// Stops the process with the first cycle on the path and `step`, if there is one.
    func failOnFirstCycle(closingWith step: ResolutionStep? = nil) {
        ResolutionStep.failOnFirstCycle(in: path + (step.map { [$0] } ?? []))
    }

    /// In debug builds, reports `step`, resolved in `scope` by `manager`, if a factory being
    /// created above it would hold it captive.
    @usableFromInline
    func checkCaptive(_ step: ResolutionStep, scope: Scope, manager: ContainerManager) {
        #if DEBUG
            // The outermost factory on this thread is owned by the async factory whose closure
            // resolves it, if any.
            let async = base ?? (depth == 0 ? AsyncResolution.ambient : nil)
            guard depth > 0 || async != nil else { return }
            let owners = zip(path, ownersOnPath).reversed().map {
                CaptiveOwner(step: $0, scope: $1.scope, manager: $1.manager)
            }
            manager.checkCaptive(
                step, scope: scope, owners: owners + (async?.captiveOwners ?? []),
                path: (async?.path ?? []) + path)
        #endif
    }
}

extension ResolutionStep {
    /// Stops the process for `path`, nested `limit` levels deep or deeper without a cycle.
    static func failTooDeep(_ path: [ResolutionStep], limit: Int) -> Never {
        let tail = path.suffix(8).map(\.descriptionWithParameter)
        Validation.stop(
            .tooDeep,
            "Depot: resolution nested \(path.count) levels deep, past the limit of \(limit) "
                + "(ContainerManager.maximumResolutionDepth): ... -> "
                + tail.joined(separator: " -> ") + ". No step repeats with the same parameter, "
                + "so it is not a cycle but recursion that has not ended: if it is meant to go "
                + "this deep, raise the limit before resolving, e.g. "
                + "ContainerManager.maximumResolutionDepth = \(max(limit * 4, 1_000)).",
            fix: "End the recursion, or raise ContainerManager.maximumResolutionDepth if it is "
                + "meant to go this deep.")
    }

    /// Stops the process for a circle of threads or tasks (`across`) each waiting for another:
    /// `path` ends with the step it would wait for; `circle` holds the others' steps from there
    /// back to one on `path`.
    static func failCircularWait(
        path: [ResolutionStep], circle: [ResolutionStep], across: String
    ) -> Never {
        let closing = circle.last!
        let start = path.firstIndex { $0.isSameResolution(as: closing) } ?? 0
        let names = (path[start...] + circle.dropLast()).map(\.description) + [closing.description]
        Validation.stop(
            .cycle,
            "Depot: circular dependency: " + names.joined(separator: " -> ")
                + " (across \(across): each waits for another to finish creating)",
            fix: cycleFix)
    }

    /// Stops the process with the first cycle in `steps`, a resolution path, if there is one:
    /// its steps from the first to come back, as checking every step as it entered would find.
    static func failOnFirstCycle(in steps: [ResolutionStep]) {
        for end in steps.indices.dropFirst() {
            guard
                let start = steps[..<end].firstIndex(where: { $0.isSameResolution(as: steps[end]) })
            else { continue }
            let names = steps[start...end].map(\.description)
            Validation.stop(
                .cycle, "Depot: circular dependency: " + names.joined(separator: " -> "),
                fix: cycleFix)
        }
    }

    /// How to break a cycle, for a validation's report.
    static let cycleFix =
        "Break the cycle: have one of its factories hold a Lazy (.lazy) or Provider (.provider) "
        + "of the next and resolve it after it is made, or inject the dependency later."
}
