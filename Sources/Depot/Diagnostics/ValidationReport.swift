/// What ``ManagedContainer/validate(_:)`` found in the graph its roots reach.
///
/// Print it in a test for a block a CI log reads well: a line per problem with its path and fix,
/// then the factories a stopped resolve did not finish checking.
///
/// ```swift
/// @Test func graphIsValid() {
///     let report = Container.shared.validate(\.appModel, \.server)
///     #expect(report.isValid, "\(report)")
/// }
/// ```
public struct ValidationReport: Sendable, CustomStringConvertible {
    /// The container type validated: `Container`.
    public let container: String
    /// Every problem found, errors and warnings, in the order found.
    public let problems: [ValidationProblem]
    /// The factories whose resolve a problem stopped before it finished: what they would
    /// have resolved after the problem was not checked.
    public let unchecked: [String]
    /// The factories the roots reached and the dependencies between them, with a mark on each
    /// factory a problem was found at.
    public let graph: DependencyGraph

    /// Whether no problem is an error; warnings (``ValidationProblem/Severity/warning``) do
    /// not count.
    public var isValid: Bool { errors.isEmpty }

    /// The problems that are errors.
    public var errors: [ValidationProblem] { problems.filter { $0.severity == .error } }

    /// The problems that are warnings.
    public var warnings: [ValidationProblem] { problems.filter { $0.severity == .warning } }

    /// The graph walked, as Mermaid, problem factories marked (see ``DependencyGraph/mermaid()``).
    public func mermaid() -> String { graph.mermaid() }

    /// The graph walked, in Graphviz's language, problem factories in red.
    public func dot() -> String { graph.dot() }

    /// A block for a CI log: a summary line, a line per problem with its path and fix, then the
    /// unchecked factories.
    public var description: String {
        let count = { (n: Int, noun: String) in "\(n) \(noun)\(n == 1 ? "" : "s")" }
        var lines = [
            "Depot validation of \(container): \(isValid ? "valid" : "INVALID"), "
                + count(errors.count, "error") + ", " + count(warnings.count, "warning")
                + "; factories checked: \(graph.nodes.count)"
        ]
        lines += problems.map(\.description)
        if !unchecked.isEmpty {
            lines.append("unchecked: a problem stopped these before they finished resolving:")
            lines += unchecked.map { "  " + $0 }
        }
        return lines.joined(separator: "\n")
    }
}

/// One problem ``ManagedContainer/validate(_:)`` found: what, where, Depot's message and the fix.
public struct ValidationProblem: Sendable, Equatable, CustomStringConvertible {
    /// What kind of problem it is.
    public enum Kind: String, Sendable, CaseIterable {
        /// A `promised()` factory, or a type resolved through `Resolving`, with no registration.
        case missingRegistration
        /// A factory that depends on itself, through the whole path named.
        case cycle
        /// A resolve nested past ``ContainerManager/maximumResolutionDepth``.
        case tooDeep
        /// A factory declared on an actor whose closure would run off it.
        case isolationBreach
        /// An instance of a lifetime scope kept by an owner that outlives the scope.
        case captiveDependency
        /// A `.unique`, `.graph` or weakly held instance kept by a longer-lived owner: a
        /// warning, as it is FactoryKit's commonest pattern and often meant.
        case shortLivedCaptive
        /// Two copies of Depot in one process: registrations made through one are not seen
        /// by resolves through the other.
        case secondCopyOfDepot
    }

    /// Whether the problem makes the graph invalid.
    public enum Severity: String, Sendable {
        /// The graph is broken: ``ValidationReport/isValid`` is false.
        case error
        /// Worth a look, often meant: it leaves ``ValidationReport/isValid`` true.
        case warning
    }

    /// What kind of problem it is.
    public let kind: Kind
    /// The factories from the root to the one the problem is at: `Container.appModel<AppModel>`,
    /// then each factory it resolved on the way, with its parameter if it has one.
    public let path: [String]
    /// The factory the problem is at, as the graph names it.
    let factory: String?
    /// Depot's message for it, as it would stop or log.
    public let message: String
    /// What to change.
    public let fix: String

    /// ``Severity/warning`` for ``Kind/shortLivedCaptive``, ``Severity/error`` for the rest.
    public var severity: Severity { kind == .shortLivedCaptive ? .warning : .error }

    /// `error[cycle] A -> B -> A`, then the message and the fix, indented.
    public var description: String {
        "\(severity.rawValue)[\(kind.rawValue)] "
            + (path.isEmpty ? "(process)" : path.joined(separator: " -> ")) + "\n  " + message
            + "\n  fix: " + fix
    }

    /// Whether both are the same kind of problem, on the same path, with the same message.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.kind == rhs.kind && lhs.path == rhs.path && lhs.message == rhs.message
    }
}
