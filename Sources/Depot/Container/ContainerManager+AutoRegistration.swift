// Running a container's `autoRegister()` once, before its first use.
extension ContainerManager {
    /// Runs the container's `autoRegister()` if it has not run since the manager was made or its
    /// registrations were reset. Other threads wait for it.
    ///
    /// - Returns: `true` when the calling thread is inside `autoRegister()` itself (it resolves or
    ///   registers while registering), so it must go on without waiting for itself.
    @discardableResult
    @usableFromInline
    func autoRegisterIfNeeded(_ container: any ManagedContainer) -> Bool {
        // Read first, under the lock alone: once it has run, as nearly always, there is no gate
        // to take; nor where there is nothing to run (asked only then: a conformance check
        // costs more than the lock).
        let isDone = state.withLock { state in
            state.containerType = state.containerType ?? ObjectIdentifier(Swift.type(of: container))
            return state.isAutoRegistered
        }
        if isDone { return false }
        guard container is AutoRegistering else {
            state.withLock { $0.isAutoRegistered = true }
            return false
        }
        // Recursive: the thread running autoRegister() gets through; every other thread waits here
        // until it has finished.
        let gate = autoRegistrationGate
        gate.lock()
        defer { gate.unlock() }
        let phase = state.withLock { state -> AutoRegistrationPhase in
            if state.isAutoRegistered { return .done }
            if state.isAutoRegistering { return .runningOnThisThread }
            state.isAutoRegistering = true
            return .toRun
        }
        switch phase {
        case .done:
            return false
        case .runningOnThisThread:
            return true
        case .toRun:
            // User code, outside `state`'s lock but inside the recursive gate, by design: the
            // thread registering may resolve and register (it gets through the gate again);
            // other threads wait until it has finished.
            (container as? AutoRegistering)?.autoRegister()
            state.withLock { state in
                state.isAutoRegistering = false
                state.isAutoRegistered = true
            }
            return false
        }
    }

    /// Serialises `autoRegister()`; recursive so the container can resolve inside it. Made on
    /// first use, by a container that has an `autoRegister()`: a lifetime scope (one per
    /// request) never needs one.
    private var autoRegistrationGate: Mutex {
        state.withLock { state in
            if let gate = state.seldom.autoRegistrationGate { return gate }
            let gate = Mutex(recursive: true)
            state.seldom.autoRegistrationGate = gate
            return gate
        }
    }

    private enum AutoRegistrationPhase {
        case done, runningOnThisThread, toRun
    }
}
