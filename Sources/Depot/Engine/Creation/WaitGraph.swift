/// Which creations wait for which, for threads and tasks alike: an edge from each creation a
/// waiter is making to the creation it waits for. A thread or task that would wait, through
/// others, for a creation it is making itself stops with the whole path instead of waiting for
/// ever.
enum WaitGraph {
    /// A thread or task that makes `from` (or a creation nested in it) waits for `to`; `path`
    /// is its path, ending with the step it waits for.
    private struct Edge {
        let to: Creation
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

    /// Records that a thread or task (`across`) making `making`, on `path`, waits for
    /// `creation`, or stops the process if that closes a circle. One that makes nothing waits
    /// for no circle.
    static func enter(
        making: [Creation], path: @autoclosure () -> [ResolutionStep],
        waitingFor creation: Creation, across: String
    ) -> Wait? {
        guard !making.isEmpty else { return nil }
        let path = path()
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
            ResolutionStep.failCircularWait(path: path, circle: circle, across: across)
        }
        return Wait(id: id, from: Array(targets))
    }

    /// The steps others took from `creation` to one of `targets` (ending with its step),
    /// if its creation waits for one of them.
    private static func route(
        from creation: Creation, to targets: Set<ObjectIdentifier>, in state: State
    ) -> [ResolutionStep]? {
        if targets.contains(ObjectIdentifier(creation)) { return [] }
        var visited: Set<ObjectIdentifier> = []
        func search(_ current: Creation) -> [ResolutionStep]? {
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

    /// Records that the waiter `enter` returned `wait` for waits no more.
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
