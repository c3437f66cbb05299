/// One in-flight creation by an async factory: the tasks that ask for its instance meanwhile
/// suspend on it, none of them blocking a thread.
///
/// The creation runs in a task of its own (see `asyncInstance`), so cancelling any task that
/// waits, the one that started it included, never cancels, fails or repeats it: that task
/// throws `CancellationError` at once, and the others keep waiting.
// @unchecked Sendable: `state` is a `Locked`; the value it keeps is shared by every waiter as a
// cached instance is shared by every resolve (see `FactoryRegistration`).
@usableFromInline
final class AsyncCreation: PendingCreation, @unchecked Sendable {
    private struct State {
        var result: Result<Any, any Error>?
        var waiters: [Int: CheckedContinuation<Unchecked<Any>, any Error>] = [:]
        /// Waiters cancelled before they suspended.
        var cancelled: Set<Int> = []
        var nextWaiter = 0
    }

    private let state = Locked(State())

    /// Ends the creation with `result` and resumes every waiter with it.
    @usableFromInline
    func finish(_ result: Result<Any, any Error>) {
        let waiters = state.withLock { state in
            state.result = result
            state.cancelled = []
            defer { state.waiters = [:] }
            return state.waiters
        }
        for waiter in waiters.values {
            switch result {
            case .success(let value): waiter.resume(returning: Unchecked(value))
            case .failure(let error): waiter.resume(throwing: error)
            }
        }
    }

    /// Suspends until the creation ends and returns its instance or throws its error; throws
    /// `CancellationError` as soon as the calling task is cancelled. `waiter` is the
    /// resolution that waits, for the cycle check across tasks.
    @usableFromInline
    func value<T>(for waiter: AsyncResolution?, as type: T.Type) async throws -> T {
        let wait = AsyncWaitGraph.enter(waiter, waitingFor: self)
        defer { AsyncWaitGraph.leave(wait) }
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        let value = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let result = state.withLock { state -> Result<Any, any Error>? in
                    if let result = state.result { return result }
                    if state.cancelled.remove(id) != nil { return .failure(CancellationError()) }
                    state.waiters[id] = continuation
                    return nil
                }
                switch result {
                case .success(let value): continuation.resume(returning: Unchecked(value))
                case .failure(let error): continuation.resume(throwing: error)
                case nil: break
                }
            }
        } onCancel: {
            let continuation = state.withLock {
                state -> CheckedContinuation<Unchecked<Any>, any Error>? in
                guard state.result == nil else { return nil }
                guard let continuation = state.waiters.removeValue(forKey: id) else {
                    state.cancelled.insert(id)
                    return nil
                }
                return continuation
            }
            continuation?.resume(throwing: CancellationError())
        }
        // The creation made a `T`: the key names it.
        return value.value as! T
    }
}

/// A value handed between tasks where Depot's own rules (not the type system) make that safe;
/// each use says why.
struct Unchecked<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}

/// Which async creations wait for which: lets a task see that the creation it would wait for
/// waits, through other tasks, for one it is making itself (a circular dependency split across
/// tasks), and stop with the whole path instead of suspending forever.
enum AsyncWaitGraph {
    /// A task that makes `from` (or a creation nested in it) waits for `to`; `path` is its
    /// path, ending with the step it waits for.
    private struct Edge {
        let to: AsyncCreation
        let path: [ResolutionStep]
        let id: Int
    }

    private struct State {
        var edges: [ObjectIdentifier: [Edge]] = [:]
        var nextID = 0
    }

    private static let state = Locked(State())

    /// What `leave` removes.
    struct Wait {
        fileprivate let id: Int
        fileprivate let from: [ObjectIdentifier]
    }

    /// Records that `waiter` waits for `creation`, or stops the process if that closes a
    /// circle. Costs nothing for a waiter that is making nothing.
    static func enter(_ waiter: AsyncResolution?, waitingFor creation: AsyncCreation) -> Wait? {
        guard let waiter else { return nil }
        let making = waiter.creations
        guard !making.isEmpty else { return nil }
        let path = waiter.path
        let targets = Set(making.map(ObjectIdentifier.init))
        let (circle, id) = state.withLock { state -> ([ResolutionStep]?, Int) in
            if let route = route(from: creation, to: targets, in: state) {
                return ([creation.step] + route, 0)
            }
            state.nextID += 1
            for made in making {
                state.edges[ObjectIdentifier(made), default: []].append(
                    Edge(to: creation, path: path + [creation.step], id: state.nextID))
            }
            return (nil, state.nextID)
        }
        if let circle {
            let closing = circle.last!
            let start = path.firstIndex { $0.isSameResolution(as: closing) } ?? 0
            let names =
                (path[start...] + circle.dropLast()).map(\.description) + [closing.description]
            fatalError(
                "Depot: circular dependency: " + names.joined(separator: " -> ")
                    + " (across tasks: each waits for another to finish creating)")
        }
        return Wait(id: id, from: Array(targets))
    }

    /// The steps other tasks took from `creation` on to one of `targets`, if its creation waits
    /// for one of them; `nil` if not. The last step is the target's; none when `creation` is
    /// one of them.
    private static func route(
        from creation: AsyncCreation, to targets: Set<ObjectIdentifier>, in state: State
    ) -> [ResolutionStep]? {
        if targets.contains(ObjectIdentifier(creation)) { return [] }
        var visited: Set<ObjectIdentifier> = []
        func search(_ current: AsyncCreation) -> [ResolutionStep]? {
            guard visited.insert(ObjectIdentifier(current)).inserted else { return nil }
            for edge in state.edges[ObjectIdentifier(current)] ?? [] {
                let start = edge.path.lastIndex { $0.isSameResolution(as: current.step) }
                let steps = Array(edge.path[(start.map { $0 + 1 } ?? edge.path.count - 1)...])
                if targets.contains(ObjectIdentifier(edge.to)) { return steps }
                if let rest = search(edge.to) { return steps + rest }
            }
            return nil
        }
        return search(creation)
    }

    static func leave(_ wait: Wait?) {
        guard let wait else { return }
        state.withLock { state in
            for from in wait.from {
                state.edges[from]?.removeAll { $0.id == wait.id }
                if state.edges[from]?.isEmpty == true { state.edges[from] = nil }
            }
        }
    }
}
