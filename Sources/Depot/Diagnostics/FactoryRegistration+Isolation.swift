extension FactoryRegistration {
    /// Stops the process, in debug builds, if the factory is resolved off `isolation`, the actor
    /// its declaration is isolated to: its closure inherits that isolation, and would run off
    /// it, racing with the actor's own code.
    @usableFromInline
    func checkIsolation(_ isolation: any Actor, _ parameter: P) {
        // Built only when the check fails.
        func message() -> String {
            let actor = String(describing: Swift.type(of: isolation))
            return "Depot: \(step(parameter)) is declared on \(actor) and was resolved off it, "
                + Self.whereResolved() + ". Its closure is isolated to \(actor) and must run "
                + "there: resolve it from code isolated to \(actor) (with "
                + "resolveOnMainActor() or resolveOnGlobalActor(_:) from elsewhere), or declare "
                + "the factory's property nonisolated if what it makes need not run there."
        }
        // The main thread runs the main actor's code; outside any task, no other thread runs
        // an actor's. In a task on another thread, the runtime's check tells (and stops the
        // process with its own message where the platform does not print this one).
        if isolation === MainActor.shared, ResolutionFrame.current.isOnMainThread { return }
        guard ResolutionFrame.isInTask else { fatalError(message()) }
        isolation.preconditionIsolated(message())
    }

    /// Where the resolve that is off its factory's actor runs: the path above it, and whether
    /// in a task.
    private static func whereResolved() -> String {
        let path = ResolutionFrame.current.path
        return (ResolutionFrame.isInTask ? "in a task" : "on a thread outside any task")
            + (path.isEmpty ? "" : ", inside " + path.map(\.description).joined(separator: " -> "))
    }
}
