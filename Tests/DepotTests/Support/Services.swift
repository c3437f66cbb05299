import Depot

protocol Service: AnyObject, Sendable {
    var name: String { get }
}

final class LiveService: Service, @unchecked Sendable {
    let name = "live"
}

final class MockService: Service, @unchecked Sendable {
    let name: String
    init(_ name: String = "mock") { self.name = name }
}

final class Thing: @unchecked Sendable {
    let id: Int
    init(id: Int = 0) { self.id = id }
}

struct ValueThing: Equatable, Sendable {
    let id: Int
}

/// Two graph-scoped dependents of one shared graph instance.
final class GraphRoot: @unchecked Sendable {
    let left: GraphLeaf
    let right: GraphLeaf
    init(left: GraphLeaf, right: GraphLeaf) {
        self.left = left
        self.right = right
    }
}

final class GraphLeaf: @unchecked Sendable {
    let shared: Thing
    init(shared: Thing) { self.shared = shared }
}

/// A thread-safe counter for factory calls.
final class Counter: @unchecked Sendable {
    private let lock = Locked(0)
    func increment() { lock.withLock { $0 += 1 } }
    var value: Int { lock.withLock { $0 } }
}
