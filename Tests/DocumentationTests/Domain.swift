import Depot
import Foundation

// The code of the documentation. Every `swift` block of README.md and of the DocC articles in
// Sources/Depot/Depot.docc appears verbatim in this target (or in Examples/), so it compiles, and
// the tests around it check that it does what the text says; .ci/check-documentation finds each
// block. This file is the small app the snippets are about: a user API, its live and mock
// implementations.

struct User: Sendable, Equatable, Identifiable {
    let id: Int
    let name: String
}

protocol API: Sendable {
    func user(id: Int) -> User
}

final class LiveAPI: API {
    func user(id: Int) -> User { User(id: id, name: "Ada") }
}

final class MockAPI: API {
    func user(id: Int) -> User { User(id: id, name: "Mock") }
}

final class Session: Sendable {}

/// A value behind a lock, for the tests' clocks and counters.
final class Locked<Value>: @unchecked Sendable {
    // @unchecked Sendable: `value` is only reached under `lock`.
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<R>(_ body: (inout Value) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
