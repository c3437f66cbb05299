#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

// How a validation runs its roots, ends, and, where a synchronous stop cannot be unwound, ends
// the process after writing its report.

extension Validation {
    /// A root as the validation runs it: its name, the actor its declaration is on, and its
    /// resolve, synchronous or async.
    // @unchecked Sendable: the closures resolve a factory value, used by one validation on one
    // task at a time, as a resolve would use it.
    struct Root: @unchecked Sendable {
        let name: String
        let isolation: (any Actor.Type)?
        let resolve: (() -> Void)?
        let resolveAsync: (() async throws -> Void)?
    }

    /// Validates `roots`, made in the container, on the calling thread: a root declared on an
    /// actor the caller is not on, or an async one, is listed as unchecked.
    static func validate(_ name: String, roots: [Root]) -> ValidationReport {
        let validation = Validation(container: name)
        for root in validation.start(roots) {
            if root.resolve == nil {
                validation.skip(root, reason: UncheckedFactory.isAsync)
            } else if let isolation = root.isolation,
                isolation != MainActor.self || !ResolutionFrame.isOnMainActor
            {
                validation.skip(root, reason: UncheckedFactory.offActor("\(isolation)"))
            } else {
                validation.inRoot(on: root.isolation) { root.resolve?() }
            }
        }
        let (report, disposals) = validation.end()
        if !disposals.isEmpty {
            Task { _ = await Disposal.run(disposals) }
        }
        return report
    }

    /// Validates `roots` in the calling task, each on the actor it is declared on, or on
    /// `caller`'s, the actor the caller runs on, if none.
    nonisolated(nonsending) static func validate(
        _ name: String, roots: [Root], caller: (any Actor.Type)?
    ) async -> ValidationReport {
        let validation = Validation(container: name)
        for root in validation.start(roots) {
            guard let isolation = root.isolation, root.resolve != nil else {
                await validation.inRoot(on: caller) { try await validation.resolve(root) }
                continue
            }
            guard let actor = sharedActor(of: isolation) else {
                validation.skip(root, reason: UncheckedFactory.offActor("\(isolation)"))
                continue
            }
            await validation.inRoot(on: isolation, actor: actor) { root.resolve?() }
        }
        let (report, disposals) = validation.end()
        _ = await Disposal.run(disposals)
        return report
    }

    /// Resolves `root` in the calling task: a synchronous root here, an async one awaited,
    /// with what it throws recorded (a stop was recorded where it was met).
    private nonisolated(nonsending) func resolve(_ root: Root) async throws {
        if let resolve = root.resolve {
            resolve()
        } else {
            try await root.resolveAsync?()
        }
    }

    /// Runs `body`, a root's resolve, in this validation, on `isolation`'s actor.
    private func inRoot(on isolation: (any Actor.Type)?, _ body: () -> Void) {
        let node = Node(
            validation: self, parent: nil, step: nil, scope: .unique, manager: nil,
            isolation: isolation)
        Self.binding.withValue(node, operation: body)
    }

    /// Runs `body`, a root's resolve, in this validation, in the calling task.
    private nonisolated(nonsending) func inRoot(
        on isolation: (any Actor.Type)?, _ body: () async throws -> Void
    ) async {
        let node = Node(
            validation: self, parent: nil, step: nil, scope: .unique, manager: nil,
            isolation: isolation)
        await Self.binding.withValue(node) {
            do {
                try await body()
            } catch {
                // What threw was recorded where it was thrown (`resolveValidating`).
            }
        }
    }

    /// Runs `body`, a synchronous root's resolve, on `actor`, the shared one of `isolation`.
    private func inRoot(
        on isolation: any Actor.Type, actor: any Actor, _ body: @escaping () -> Void
    ) async {
        let body = Unchecked(body)
        await Self.run(on: actor) { self.inRoot(on: isolation) { body.value() } }
    }

    /// Runs `body` isolated to `actor`.
    private static func run(on actor: isolated any Actor, _ body: @Sendable () -> Void) {
        body()
    }

    /// The roots this validation runs, in order: in a child process of DepotTesting's
    /// every-root loop, from the one it starts at, each announced as it starts.
    private func start(_ roots: [Root]) -> some Sequence<Root> {
        let (first, announce) = ReportWriter.child.withLock { ($0.first, $0.announce) }
        let run = roots.enumerated().dropFirst(first)
        state.withLock { $0.rootsLeft = run.map(\.element.name) }
        return run.lazy.map { index, root in
            self.state.withLock { _ = $0.rootsLeft.removeFirst() }
            announce?(index, roots.count, root.name)
            return root
        }
    }

    /// Lists `root` as unchecked, for `reason`.
    private func skip(_ root: Root, reason: String) {
        state.withLock { $0.unchecked.append(UncheckedFactory(factory: root.name, reason: reason)) }
    }

    /// Ends the validation: returns what it found, and takes the disposals of what its copies
    /// kept, claimed, for the caller to run; the copies go.
    func end() -> (ValidationReport, [Disposal]) {
        let copies = state.withLock { state in (state.copies, state.copies = [:]).0 }
        var disposals: [Disposal] = []
        for (_, copy) in copies.values {
            disposals += copy.state.withLock { state in
                defer { state.instances.removeAll() }
                return state.instances.takeDisposals(of: nil)
            }
        }
        disposals += realm.instances.withLock { table in
            defer { table.removeAll() }
            return table.takeDisposals(of: nil)
        }
        Self.countRunning(-1)
        return (report(), disposals)
    }

    /// What the validation found so far.
    func report() -> ValidationReport {
        state.withLock { state in
            var problems = state.problems
            if state.graph.nodes.isEmpty {
                problems.append(
                    ValidationProblem(
                        kind: .nothingChecked, path: [], factory: nil,
                        message: "Depot: the validation checked no factory"
                            + (state.unchecked.isEmpty
                                ? ": it was given no roots, and none is registered or was "
                                    + "resolved while recording"
                                : ": every root was left unchecked") + ".",
                        fix: "Name the roots to check: validate(\\.appModel), or "
                            + "validate(roots:) for async and actor-isolated ones."))
            }
            return ValidationReport(
                container: container, problems: problems,
                unchecked: state.unchecked
                    + state.rootsLeft.map {
                        UncheckedFactory(factory: $0, reason: UncheckedFactory.notReached)
                    }, graph: state.graph)
        }
    }

    /// Writes the report so far to standard error and ends the process: `stopped` stops a
    /// synchronous resolve, which cannot be unwound (Validation.swift). `file` and `line` name
    /// the resolve that failed.
    func endProcess(stoppedBy stopped: ValidationProblem, file: StaticString, line: UInt) -> Never {
        let report = report()
        let text =
            "\(report)\n\nDepot: the validation ended the process at this stop, which a "
            + "synchronous resolve cannot return from. To get this report as a value and go "
            + "on, validate in a child process: Depot's Diagnostics article, \"A stop that ends the "
            + "process\".\n"
        writeToStandardError(text)
        ReportWriter.child.withLock { $0.write }?(report)
        fatalError(stopped.message, file: file, line: line)
    }
}

/// The shared actor of `type`, if it is a global actor.
private func sharedActor(of type: any Actor.Type) -> (any Actor)? {
    (type as? any GlobalActor.Type).map { shared(of: $0) }
}

private func shared<A: GlobalActor>(of type: A.Type) -> any Actor {
    A.shared
}

/// How a validation in DepotTesting's child process of an exit test
/// (`ValidationReport.reportToParent`) hands its report to the test: what a validation that
/// ends the process does with its report, the root the child starts at, and what it does as
/// each root starts.
package enum ReportWriter {
    struct Child {
        var write: (@Sendable (ValidationReport) -> Void)?
        var first = 0
        var announce: (@Sendable (_ index: Int, _ count: Int, _ name: String) -> Void)?
    }

    static let child = Locked(Child())

    /// Sets what a validation that ends the process does with its report, before it ends it.
    package static func set(_ write: @escaping @Sendable (ValidationReport) -> Void) {
        child.withLock { $0.write = write }
    }

    /// Has each validation from now on start at its root `first` (0 for the first), and call
    /// `announce` with each root's index, the number of roots and its name as it starts it.
    package static func start(
        at first: Int, announcing announce: @escaping @Sendable (Int, Int, String) -> Void
    ) {
        child.withLock { ($0.first, $0.announce) = (first, announce) }
    }
}

/// Writes `text` to standard error at once: before a stop, which ends the process.
func writeToStandardError(_ text: String) {
    // A stream of its own on a copy of descriptor 2: closing it flushes it, and leaves
    // standard error open.
    guard let standardError = fdopen(dup(2), "w") else { return }
    fputs(text, standardError)
    fclose(standardError)
}
