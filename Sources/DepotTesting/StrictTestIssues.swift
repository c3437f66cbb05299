@_spi(Testing) import Depot
import Foundation
import Testing

/// A ``StrictTest`` run by ``ContainerTrait/strict``, reporting as Swift Testing issues at its
/// `@Test` line: in its test's task at once, and at its end for what other threads report
/// while it runs.
final class StrictTestIssues: Sendable {
    /// Whether every `ContainerTrait` test is strict: `DEPOT_STRICT_TESTS=1` in the environment.
    static let isOnForProcess = ProcessInfo.processInfo.environment["DEPOT_STRICT_TESTS"] == "1"

    /// The strict test a trait started in this task: a trait inside it (a test's own
    /// `.container { ... }` in a strict suite) watches its container for the same test.
    @TaskLocal static var current: StrictTestIssues?

    /// The strict tests running now, oldest first: where an escape outside every test's task
    /// is reported.
    static let running = Guarded([StrictTestIssues]())

    /// The tests without a container of their own reported already, with
    /// `DEPOT_STRICT_TESTS=1`: one issue each.
    private static let unisolated = Guarded(Set<Test.ID>())

    let test: StrictTest
    private let id: Test.ID
    private let location: SourceLocation
    /// What threads outside the test's task reported while it ran; `nil` once it has ended.
    private let pending: Guarded<[String]?>
    /// The factories whose resolves escaped to the process's container, reported once each.
    private let escaped = Guarded(Set<String>())
    /// The list of running tests this one is in: ``running``, or a test's own.
    private let running: Guarded<[StrictTestIssues]>

    init(_ test: Test, running: Guarded<[StrictTestIssues]> = StrictTestIssues.running) {
        self.running = running
        let (id, location, pending) = (test.id, test.sourceLocation, Guarded<[String]?>([]))
        (self.id, self.location, self.pending) = (id, location, pending)
        self.test = StrictTest(name: test.displayName ?? test.name) { message in
            Self.report(message, id: id, at: location, pending: pending)
        }
        running.withLock { $0.append(self) }
    }

    /// Records `message` at the test's line: now in its own task, at its end from any other.
    private static func report(
        _ message: String, id: Test.ID, at location: SourceLocation, pending: Guarded<[String]?>
    ) {
        guard Test.current?.id != id else { return record(message, at: location) }
        let isQueued = pending.withLock { pending in
            pending?.append(message)
            return pending != nil
        }
        // Reported after the end: at the test's line still, though no test is running it.
        if !isQueued { record(message, at: location) }
    }

    /// Ends the test: its container reports each resolve from now on as escaped, and what
    /// other threads reported while it ran is recorded, in its task.
    func end() {
        test.end(watchingForEscapes: true)
        running.withLock { $0.removeAll { $0 === self } }
        let reported = pending.withLock { pending in (pending, pending = nil).0 } ?? []
        for message in reported {
            Self.record(message, at: location)
        }
    }

    private static func record(_ message: String, at location: SourceLocation) {
        Issue.record(Comment(rawValue: message), sourceLocation: location)
    }

    /// Judges a resolve from the process's own container of type `container` while strict
    /// tests run. Outside every test's task, the root of what escaped (not a factory safe in
    /// tests) is reported once, at the latest strict test still running; in a strict test's
    /// task, at that test; in a test without the trait, with `DEPOT_STRICT_TESTS=1`, the first
    /// live factory it runs, at that test.
    @Sendable
    static func process(
        _ resolve: WatchedResolve, container: String,
        running: Guarded<[StrictTestIssues]> = StrictTestIssues.running,
        isOnForProcess: Bool = StrictTestIssues.isOnForProcess
    ) {
        guard !resolve.isSafeInTests else { return }
        if let test = Test.current, !running.withLock({ $0.contains { $0.id == test.id } }) {
            guard isOnForProcess, resolve.ranLiveClosure,
                unisolated.withLock({ $0.insert(test.id).inserted })
            else { return }
            let message = StrictTest.unisolatedMessage(
                resolve, container: container, in: test.displayName ?? test.name)
            return record(message, at: test.sourceLocation)
        }
        guard resolve.resolvedBy == nil else { return }
        let strict = running.withLock { running in
            Test.current.flatMap { test in running.last { $0.id == test.id } } ?? running.last
        }
        // After the last strict test: no test ran it, nothing is reported.
        guard let strict, strict.escaped.withLock({ $0.insert(resolve.factory).inserted }) else {
            return
        }
        let message = StrictTest.escapedMessage(
            resolve, container: container, while: strict.test.name)
        report(message, id: strict.id, at: strict.location, pending: strict.pending)
    }
}
