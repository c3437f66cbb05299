/// A line of `manager.trace`, kept by the thread's resolution until its outermost factory
/// finishes, so that a resolution's lines are logged outermost first, as FactoryKit logs them.
struct TraceLine {
    /// The factory's depth on the resolution path: 0 for the outermost.
    let depth: Int
    let text: String
    /// The logger of the container that traced it.
    let logger: (String) -> Void

    /// The line for `step`: its depth, indented by it, then Depot's extras (how the value was
    /// made, the scope) at the end.
    init(
        depth: Int, step: ResolutionStep, origin: ResolutionOrigin, scope: Scope,
        logger: @escaping (String) -> Void
    ) {
        self.depth = depth
        let indent = String(repeating: "    ", count: depth)
        text = "\(depth): \(indent)\(step) = \(origin.rawValue) [\(scope)]"
        self.logger = logger
    }

    /// Logs `lines`, which came as their factories finished (a factory after those it
    /// resolved), in the order the factories were entered: each one before those it resolved.
    static func log(_ lines: [TraceLine]) {
        // Each line closes the subtree of the deeper lines just before it.
        var subtrees: [(depth: Int, lines: [TraceLine])] = []
        for line in lines {
            var start = subtrees.endIndex
            while start > subtrees.startIndex, subtrees[start - 1].depth > line.depth {
                start -= 1
            }
            let subtree = [line] + subtrees[start...].flatMap(\.lines)
            subtrees.removeSubrange(start...)
            subtrees.append((line.depth, subtree))
        }
        for line in subtrees.flatMap(\.lines) {
            line.logger(line.text)
        }
    }
}
