extension FactoryRegistration {
    /// In debug builds, reports the factory if it is resolved off `isolation`, the actor its
    /// declaration is isolated to: its closure inherits that isolation, and runs off it, racing
    /// with the actor's own code. Logged once per factory and place; with
    /// ``ContainerManager/stopsOnIsolationBreach`` the process stops instead.
    @usableFromInline
    func checkIsolation(_ isolation: any Actor, _ parameter: P) {
        let isBreach: Bool
        if isolation === MainActor.shared {
            // The main actor's code runs on the main thread, or in the main queue, which a process
            // that called dispatchMain() (an async `main` on Linux) drains on another thread.
            isBreach = !ResolutionFrame.current.isOnMainThread && !ResolutionFrame.isOnMainQueue
        } else if !ResolutionFrame.isInTask {
            // Outside any task, no thread runs an actor's code.
            isBreach = true
        } else {
            // In a task, only the runtime can tell whether it runs on another actor, and only by
            // stopping the process when it does not, with a message of its own that names no
            // factory: asked for, it does, after Depot's message, written once per factory and
            // place, for the case where it stops.
            guard manager.stopsOnIsolationBreach else { return }
            let message = message(isolation)
            let isFirst = manager.state.withLock {
                $0.seldom.warnedOnce.insert("stops: " + message).inserted
            }
            if isFirst {
                writeToStandardError(
                    "Depot: checking that the resolve runs on \(Swift.type(of: isolation)), as "
                        + "stopsOnIsolationBreach asks; if the process stops now, it did not. "
                        + message + "\n")
            }
            isolation.preconditionIsolated(message)
            return
        }
        guard isBreach else { return }
        let message = message(isolation)
        if manager.stopsOnIsolationBreach { fatalError(message) }
        manager.warnOnce(message)
    }

    /// Depot's message for a resolve off `isolation`, naming the factory, the actor and where.
    private func message(_ isolation: any Actor) -> String {
        let actor = String(describing: Swift.type(of: isolation))
        let path = ResolutionFrame.current.path
        let place =
            (ResolutionFrame.isInTask ? "in a task" : "on a thread outside any task")
            + (path.isEmpty ? "" : ", inside " + path.map(\.description).joined(separator: " -> "))
        return "Depot: \(stepWithoutParameter) is declared on \(actor) and was resolved off it, "
            + "\(place). Its closure is isolated to \(actor) and must run there: resolve it from "
            + "code isolated to \(actor) (with resolveOnMainActor() or resolveOnGlobalActor(_:) "
            + "from elsewhere), or declare the factory's property nonisolated if what it makes "
            + "need not run there."
    }
}
