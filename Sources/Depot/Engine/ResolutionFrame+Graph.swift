// The graph scope's instances and the redirections of child containers, as one thread's
// resolution keeps them.
extension ResolutionFrame {
    /// Lets go of the instances of the resolution that just ended, which nothing shared.
    func endLocalGraph() {
        // Emptied out of place: releasing an instance runs its deinit, which may resolve on
        // this thread and so use `localGraph` again.
        var ended: [InstanceKey: Any] = [:]
        swap(&ended, &localGraph)
        ended.removeAll()
    }

    /// The graph of the running resolution, made now if it has none yet: what a `Lazy` or
    /// `Provider` made now joins. `nil` outside any resolution.
    func currentGraph() -> ResolutionGraph? {
        if let graph { return graph.share() }
        guard depth > 0 else { return AsyncResolution.ambient?.graph.share() }
        let made = ResolutionGraph().share()
        made.enter()
        if !localGraph.isEmpty {
            made.adopt(localGraph)
            localGraph = [:]
        }
        graph = made
        return made
    }

    /// Runs `body` in `joined`, the graph a `Lazy` or `Provider` was made in (if any), then goes
    /// back to the graph this thread was in.
    func join<Result>(_ joined: ResolutionGraph?, _ body: () -> Result) -> Result {
        guard let joined, joined !== graph else { return body() }
        let (saved, savedIsJoined) = (graph, isGraphJoined)
        joined.enter()
        (graph, isGraphJoined) = (joined, true)
        defer {
            (graph, isGraphJoined) = (saved, savedIsJoined)
            joined.leave()
        }
        return body()
    }

    /// Sends this thread's resolves on the child container of `manager` to its parent until
    /// `endRedirect`.
    func redirect(_ manager: ContainerManager) {
        redirected[ObjectIdentifier(manager), default: 0] += 1
    }

    func endRedirect(_ manager: ContainerManager) {
        let id = ObjectIdentifier(manager)
        if let count = redirected[id], count > 1 {
            redirected[id] = count - 1
        } else {
            redirected[id] = nil
        }
    }

    /// Whether resolves on the child container of `manager` go to its parent now.
    func isRedirected(_ manager: ContainerManager) -> Bool {
        (!redirected.isEmpty && redirected[ObjectIdentifier(manager)] != nil)
            || AsyncResolution.isRedirected(manager)
    }

    /// How deep the async resolution this one started in is.
    var ambientDepth: Int { base?.depth ?? 0 }

    /// The graph-scoped instance made earlier in this resolution for `key`.
    @usableFromInline
    func graphInstance(for key: InstanceKey) -> Any? {
        if let graph {
            return graph.instance(for: key)
        }
        if depth == 0 {
            // Not started yet: inside an async factory's closure, its graph is the one.
            return AsyncResolution.ambient?.graph.instance(for: key)
        }
        return localGraph[key]
    }

    /// Keeps `instance` for the rest of this resolution.
    @usableFromInline
    func setGraphInstance(_ instance: Any, for key: InstanceKey) {
        if let graph {
            graph.setInstance(instance, for: key)
        } else if depth > 0 {
            localGraph[key] = instance
        }
    }
}
