/// An async factory's creation in flight, which the tasks that ask for its instance suspend on.
/// It runs in a task of its own (`asyncInstance`), so a cancelled waiter, the one that started
/// it included, throws `CancellationError` at once and never cancels, fails or repeats it.
// @unchecked Sendable: `state` is a `Locked`; the value it keeps is shared by every waiter as a
// cached instance is shared by every resolve (see `FactoryRegistration`).
@usableFromInline
final class AsyncCreation: CreationInFlight, @unchecked Sendable {
    private typealias Waiter = CheckedContinuation<Unchecked<Any>, any Error>

    private struct State {
        var result: Result<Any, any Error>?
        var waiters: [Int: Waiter] = [:]
        /// Waiters cancelled before they suspended.
        var cancelled: Set<Int> = []
        var nextWaiter = 0

        /// Ends the creation with `result`: returns the waiters to resume with it.
        mutating func finish(_ result: Result<Any, any Error>) -> [Waiter] {
            self.result = result
            cancelled = []
            defer { waiters = [:] }
            return Array(waiters.values)
        }

        /// A number for a new waiter.
        mutating func newWaiter() -> Int {
            nextWaiter += 1
            return nextWaiter
        }

        /// Keeps `waiter` until the result is there, or returns what to resume it with now.
        mutating func suspend(_ waiter: Waiter, id: Int) -> Result<Any, any Error>? {
            if let result { return result }
            if cancelled.remove(id) != nil { return .failure(CancellationError()) }
            waiters[id] = waiter
            return nil
        }

        /// Cancels waiter `id`: returns it to resume with cancellation, if it is suspended.
        mutating func cancel(_ id: Int) -> Waiter? {
            guard result == nil else { return nil }
            guard let waiter = waiters.removeValue(forKey: id) else {
                cancelled.insert(id)
                return nil
            }
            return waiter
        }
    }

    @usableFromInline let step: ResolutionStep
    @usableFromInline let scope: ObjectIdentifier
    private let state = Locked(State())

    @usableFromInline
    init(step: ResolutionStep, scope: Scope) {
        (self.step, self.scope) = (step, ObjectIdentifier(scope))
    }

    /// Ends the creation with `result` and resumes every waiter with it.
    @usableFromInline
    func finish(_ result: Result<Any, any Error>) {
        let waiters = state.withLock { $0.finish(result) }
        for waiter in waiters {
            switch result {
            case .success(let value): waiter.resume(returning: Unchecked(value))
            case .failure(let error): waiter.resume(throwing: error)
            }
        }
    }

    /// Suspends until the creation ends, or the calling task is cancelled. `waiter` is the
    /// resolution that waits, for the cycle check across tasks.
    @usableFromInline
    func value<T>(for waiter: AsyncResolution?, as type: T.Type) async throws -> T {
        let wait = AsyncWaitGraph.enter(waiter, waitingFor: self)
        defer { AsyncWaitGraph.leave(wait) }
        let id = state.withLock { $0.newWaiter() }
        let value = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let result = state.withLock { $0.suspend(continuation, id: id) }
                switch result {
                case .success(let value): continuation.resume(returning: Unchecked(value))
                case .failure(let error): continuation.resume(throwing: error)
                case nil: break
                }
            }
        } onCancel: {
            state.withLock { $0.cancel(id) }?.resume(throwing: CancellationError())
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

/// Which async creations wait for which: a task that would wait, through other tasks, for a
/// creation it is making itself stops with the whole path instead of suspending forever.
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
    /// circle.
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
            ResolutionStep.failCircularWait(path: path, circle: circle, across: "tasks")
        }
        return Wait(id: id, from: Array(targets))
    }

    /// The steps other tasks took from `creation` to one of `targets` (ending with its step),
    /// if its creation waits for one of them.
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
