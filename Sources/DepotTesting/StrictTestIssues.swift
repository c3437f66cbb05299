import Foundation
import Testing

/// A ``StrictTest`` run by ``ContainerTrait/strict``, reporting as Swift Testing issues: in its
/// test's task at once, and at its end for what other threads report while it runs.
final class StrictTestIssues: Sendable {
    /// Whether every `ContainerTrait` test is strict: `DEPOT_STRICT_TESTS=1` in the environment.
    static let isOnForProcess = ProcessInfo.processInfo.environment["DEPOT_STRICT_TESTS"] == "1"

    let test: StrictTest
    /// What threads outside the test's task reported while it ran; `nil` once it has ended.
    private let pending = Guarded<[String]?>([])
    private let location: SourceLocation

    init(_ test: Test) {
        let (id, location, pending) = (test.id, test.sourceLocation, pending)
        self.location = location
        self.test = StrictTest(name: test.displayName ?? test.name) { message in
            guard Test.current?.id != id else {
                return Self.record(message, at: location)
            }
            let isQueued = pending.withLock { pending in
                pending?.append(message)
                return pending != nil
            }
            if !isQueued { Self.record(message) }
        }
    }

    /// Ends the test: records, in its task, what other threads reported while it ran.
    func end() {
        test.end()
        let reported = pending.withLock { pending in (pending, pending = nil).0 } ?? []
        for message in reported {
            Self.record(message, at: location)
        }
    }

    /// Records `message` as an issue of the test of the current task, or of none: either
    /// fails the run.
    @Sendable
    static func record(_ message: String) {
        Issue.record(Comment(rawValue: message))
    }

    static func record(_ message: String, at location: SourceLocation) {
        Issue.record(Comment(rawValue: message), sourceLocation: location)
    }
}
