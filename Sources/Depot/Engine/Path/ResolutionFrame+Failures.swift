// How a resolution path stops the process (cycles, recursion too deep, circles of threads),
// and the captive dependencies it reports.
extension ResolutionFrame {
    /// Stops the process with the first cycle on the path and `step`, if there is one.
    func failOnFirstCycle(
        closingWith step: ResolutionStep? = nil, file: StaticString = #fileID, line: UInt = #line
    ) {
        ResolutionStep.failOnFirstCycle(
            in: path + (step.map { [$0] } ?? []), file: file, line: line)
    }

    /// In debug builds, reports `step`, resolved in `scope` by `manager`, if a factory being
    /// created above it would hold it captive.
    @usableFromInline
    func checkCaptive(_ step: ResolutionStep, scope: Scope, manager: ContainerManager) {
        #if DEBUG
            // The outermost factory on this thread is owned by the async factory whose closure
            // resolves it, if any.
            let async = base ?? (depth == 0 ? Self.ambient : nil)
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
    /// Stops the process for `path`, nested `limit` levels deep or deeper without a cycle, or
    /// short of the limit where the thread's stack is nearly used up (`isStackShort`).
    static func failTooDeep(
        _ path: [ResolutionStep], limit: Int, isStackShort: Bool = false,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Never {
        Validation.stop(
            .tooDeep, tooDeepMessage(path, limit: limit, isStackShort: isStackShort),
            fix: "End the recursion, or raise ContainerManager.maximumResolutionDepth (and the "
                + "thread's stack) if it is meant to go this deep.", file: file, line: line)
    }

    /// Depot's message for `path`, nested past `limit` or, if `isStackShort`, short of it where
    /// the thread's stack is nearly used up.
    static func tooDeepMessage(_ path: [ResolutionStep], limit: Int, isStackShort: Bool = false)
        -> String
    {
        let tail = path.suffix(8).map(\.descriptionWithParameter).joined(separator: " -> ")
        // Steps that look the same differ in their containers (a chain of children, say).
        let containers = Set(path.map(\.manager)).count
        let whatDiffers =
            containers > 1 && Set(path.map(\.descriptionWithParameter)).count < path.count
            ? "Its steps that look the same are in different containers (\(containers) on the "
                + "path: child containers or lifetime scopes), and no step repeats in one"
            : "No step repeats with the same parameter"
        let raise =
            isStackShort
            ? "resolve it on a thread with a larger stack (Thread.stackSize)"
            : "raise the limit before resolving, e.g. "
                + "ContainerManager.maximumResolutionDepth = \(max(limit * 4, 1_000))"
        return "Depot: resolution nested \(path.count) levels deep, "
            + (isStackShort ? "its thread's stack nearly used up, short of" : "past")
            + " the limit of \(limit) (ContainerManager.maximumResolutionDepth): ... -> \(tail)."
            + " \(whatDiffers), so it is not a cycle but recursion that has not ended: if it "
            + "is meant to go this deep, \(raise)."
    }

    /// Stops the process for a circle of threads or tasks (`across`) each waiting for another:
    /// `path` ends with the step it would wait for; `circle` holds the others' steps from there
    /// back to one on `path`.
    static func failCircularWait(
        path: [ResolutionStep], circle: [ResolutionStep], across: String,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Never {
        let closing = circle.last!
        let start = path.firstIndex { $0.isSameResolution(as: closing) } ?? 0
        let names = (path[start...] + circle.dropLast()).map(\.description) + [closing.description]
        Validation.stop(
            .cycle,
            "Depot: circular dependency: " + names.joined(separator: " -> ")
                + " (across \(across): each waits for another to finish creating)",
            fix: cycleFix, file: file, line: line)
    }

    /// Stops the process with the first cycle in `steps`, a resolution path, if there is one:
    /// its steps from the first to come back, as checking every step as it entered would find.
    static func failOnFirstCycle(
        in steps: [ResolutionStep], file: StaticString = #fileID, line: UInt = #line
    ) {
        for end in steps.indices.dropFirst() {
            guard
                let start = steps[..<end].firstIndex(where: { $0.isSameResolution(as: steps[end]) })
            else { continue }
            let names = steps[start...end].map(\.description)
            Validation.stop(
                .cycle, "Depot: circular dependency: " + names.joined(separator: " -> "),
                fix: cycleFix, file: file, line: line)
        }
    }

    /// How to break a cycle, for a validation's report.
    static let cycleFix =
        "Break the cycle: have one of its factories hold a Lazy (.lazy) or Provider (.provider) "
        + "of the next and resolve it after it is made, or inject the dependency later."
}
