// How DepotTesting's every-root loop puts together the reports of its child processes: each
// validates the roots from where the one before it stopped.

extension ValidationReport {
    /// This report and `later`'s, whose validation went on with the roots this one did not
    /// reach: each problem once, in the order found; the factories either left unchecked but
    /// for the roots this one did not reach, which `later` checked or lists itself; and both
    /// graphs.
    package func merged(with later: ValidationReport) -> ValidationReport {
        var seen = Set(problems.map(ValidationProblem.Identity.init))
        let added = later.problems.filter { seen.insert(ValidationProblem.Identity($0)).inserted }
        let reached = unchecked.filter { $0.reason != UncheckedFactory.notReached }
        let unchecked = reached + later.unchecked.filter { !reached.contains($0) }
        return ValidationReport(
            container: container, problems: problems + added, unchecked: unchecked,
            graph: graph.merged(with: later.graph))
    }

    /// A report of the roots from `root` on, of a container of type `container`, whose child
    /// process ended while it checked `root` without handing a report back, having written
    /// `standardError`.
    package static func childEnded(
        container: String, root: String, standardError: String
    ) -> ValidationReport {
        let problem = ValidationProblem(
            kind: .childProcessEnded, path: [root], factory: root,
            message: "Depot: the validation's child process ended while it checked \(root), "
                + "without a report. Its standard error:\n" + standardError,
            fix: "Make \(root) resolve in the test's child process: register a mock for what "
                + "ends the process, or fix it.")
        var graph = DependencyGraph()
        graph.marked.insert(root)
        return ValidationReport(
            container: container, problems: [problem], unchecked: [], graph: graph)
    }
}

extension DependencyGraph {
    /// The factories and dependencies of both graphs; a factory's scope is the one either
    /// resolved it in, `other`'s first.
    func merged(with other: DependencyGraph) -> DependencyGraph {
        var merged = self
        for (name, node) in other.nodesByName {
            merged.nodesByName[name] = node.scope == nil ? merged.nodesByName[name] ?? node : node
        }
        merged.edgeSet.formUnion(other.edgeSet)
        merged.marked.formUnion(other.marked)
        return merged
    }
}
