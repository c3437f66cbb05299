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
public struct ValidationReport: Sendable, Codable, CustomStringConvertible {
    /// The container type validated: `Container`.
    public let container: String
    /// Every problem found, errors and warnings, in the order found.
    public let problems: [ValidationProblem]
    /// The factories not checked, or not checked whole, each with why: a root the validation
    /// could not run where it is called (an async one, or one declared on another actor), a
    /// factory whose resolve a problem stopped before it finished, a root not reached.
    public let unchecked: [UncheckedFactory]
    /// The factories the roots reached and the dependencies between them, with a mark on each
    /// factory a problem was found at.
    public let graph: DependencyGraph

    /// Whether no problem is an error; warnings (``ValidationProblem/Severity/warning``) do
    /// not count. A validation that checked no factory is not valid
    /// (``ValidationProblem/Kind/nothingChecked``).
    public var isValid: Bool { errors.isEmpty }

    /// The problems that are errors.
    public var errors: [ValidationProblem] { problems.filter { $0.severity == .error } }

    /// The problems that are warnings.
    public var warnings: [ValidationProblem] { problems.filter { $0.severity == .warning } }

    /// The graph walked, as Mermaid, problem factories marked (see ``DependencyGraph/mermaid()``).
    public func mermaid() -> String { graph.mermaid() }

    /// The graph walked, in Graphviz's language, problem factories in red.
    public func dot() -> String { graph.dot() }

    /// The verdict, the first line of ``description``: `Depot validation of Container:
    /// INVALID, 1 error, 0 warnings; factories checked: 2`.
    public var summary: String {
        let count = { (n: Int, noun: String) in "\(n) \(noun)\(n == 1 ? "" : "s")" }
        return "Depot validation of \(container): \(isValid ? "valid" : "INVALID"), "
            + count(errors.count, "error") + ", " + count(warnings.count, "warning")
            + "; factories checked: \(graph.nodes.count)"
    }

    /// A block for a CI log: the ``summary`` line, a line per problem with its path and fix,
    /// then the unchecked factories.
    public var description: String {
        var lines = [summary]
        lines += problems.map(\.description)
        if !unchecked.isEmpty {
            lines.append("unchecked:")
            lines += elided(unchecked.map { "  " + $0.description }, showing: 20)
        }
        return lines.joined(separator: "\n")
    }
}

/// A factory ``ManagedContainer/validate(_:)`` did not check, or not whole, and why.
public struct UncheckedFactory: Sendable, Equatable, Codable, CustomStringConvertible {
    /// The factory, as the graph names it: `Container.api<API>`.
    public let factory: String
    /// Why it was not checked, and how to check it.
    public let reason: String

    /// `Container.api<API>: why`.
    public var description: String { "\(factory): \(reason)" }

    static let stopped =
        "a problem below it stopped its resolve: what it resolves after that was not checked"
    static let notReached = "not reached: the validation ended the process at a problem before"
    static let isAsync =
        "an async factory, which a synchronous validation cannot resolve: validate it with "
        + "await validate(roots: [.async(...)])"

    static func offActor(_ actor: String) -> String {
        "declared on \(actor), which this validation does not run on: call validate from "
            + "\(actor), or await validate(roots:), which runs each root on its actor"
    }
}

/// `lines`, with those past the first and last `count` replaced by one line saying how many.
func elided(_ lines: [String], showing count: Int) -> [String] {
    guard lines.count > 2 * count + 1 else { return lines }
    let hidden = "  ... \(lines.count - 2 * count) more ..."
    return Array(lines.prefix(count)) + [hidden] + Array(lines.suffix(count))
}

/// One problem ``ManagedContainer/validate(_:)`` found: what, where, Depot's message and the fix.
public struct ValidationProblem: Sendable, Equatable, Codable, CustomStringConvertible {
    /// What kind of problem it is.
    public enum Kind: String, Sendable, Codable, CaseIterable {
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
        /// A factory's closure threw: the message names the error.
        case factoryThrew
        /// The validation checked no factory: it proves nothing.
        case nothingChecked
        /// A container's instance kept by a singleton: the container's resets make a new one
        /// while the singleton keeps the old. A warning.
        case keptPastReset
        /// Two contributions to one collection that look alike: two modules that declared the
        /// same name and type, or one factory contributed twice. A warning.
        case duplicateContribution
        /// A child process of DepotTesting's every-root loop ended without a report while it
        /// checked the root named: the message holds what it wrote to standard error.
        case childProcessEnded
        /// One instance kept by two caching factories: an alias
        /// (``ManagedContainer/alias(_:key:file:_:)-((Self)->Factory<Source>,_,_,_)``), or a
        /// forward written by hand, with a scope of its own, which keeps its source's instance
        /// past the source's resets. A warning.
        case aliasWithOwnScope
        /// Two caching factories that keep instances of one class, each with its own lifetime:
        /// two instances where a reader expects one. A warning; ``tornSingleton`` when both are
        /// singletons.
        case tornLifestyle
        /// Two `.singleton` factories that keep instances of one class: two "singletons".
        case tornSingleton
        /// A `.unique` or `.graph` factory with `onDispose`: no scope keeps its instances, so
        /// their teardown never runs. A warning.
        case disposableTransient
        /// A collection (`contributions()`) that nothing contributes to. A warning, unless it
        /// is declared with `contributions(mayBeEmpty: true)`.
        case emptyCollection
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

    /// ``Severity/warning`` for ``Kind/shortLivedCaptive``, ``Kind/keptPastReset``,
    /// ``Kind/duplicateContribution``, ``Kind/aliasWithOwnScope``, ``Kind/tornLifestyle``,
    /// ``Kind/disposableTransient`` and ``Kind/emptyCollection``, ``Severity/error`` for the rest.
    public var severity: Severity {
        switch kind {
        case .shortLivedCaptive, .keptPastReset, .duplicateContribution, .aliasWithOwnScope,
            .tornLifestyle, .disposableTransient, .emptyCollection:
            .warning
        default: .error
        }
    }

    /// `error[cycle] A -> B -> A`, then the message and the fix, indented. A path past a few
    /// dozen steps shows its first and last steps.
    public var description: String {
        let steps = elided(path, showing: 12).map {
            $0.hasPrefix("  ... ") ? String($0.dropFirst(2)) : $0
        }
        return "\(severity.rawValue)[\(kind.rawValue)] "
            + (path.isEmpty ? "(process)" : steps.joined(separator: " -> ")) + "\n  " + message
            + "\n  fix: " + fix
    }

    /// Whether both are the same kind of problem, on the same path, with the same message.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.kind == rhs.kind && lhs.path == rhs.path && lhs.message == rhs.message
    }
}
