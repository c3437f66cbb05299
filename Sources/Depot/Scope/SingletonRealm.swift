/// Where process-wide scopes keep their instances: one for the process, and one for the code in
/// each ``Scope/withIsolatedSingletons(_:isolation:)`` (and DepotTesting's `.container` trait).
/// A container takes the realm current when it is made, so a resolve reads no task-local.
@usableFromInline
final class SingletonRealm: Sendable {
    static let process = SingletonRealm()

    /// The realm of ``Scope/singleton`` now: the process's, or a clone's.
    static var current: SingletonRealm {
        isolated ?? process
    }

    /// The isolated realm of the clone of ``Scope/singleton`` current now, if any.
    static var isolated: SingletonRealm? {
        Scope.singleton.isolatedRealm
    }

    let instances = Locked(InstanceTable())

    func removeInstances(of scope: Scope) {
        // The dropped cells are released after the lock; a custom storage's removeAll() runs
        // under it, by design.
        instances.withLock { $0.removeInstances(of: scope) }
    }
}

extension Scope {
    /// Runs `operation` with empty process-wide scopes of its own: containers created inside it
    /// keep their singletons apart from everyone else's, and `Scope.singleton.reset()` inside it
    /// resets only those.
    public static func withIsolatedSingletons<Result>(
        _ operation: () async throws -> Result,
        isolation: isolated (any Actor)? = #isolation
    ) async rethrows -> Result {
        try await Scope.$singleton.withValue(Scope.singleton.clone(), operation: operation)
    }

    /// Runs `operation` with empty process-wide scopes of its own (the synchronous form).
    public static func withIsolatedSingletons<Result>(_ operation: () throws -> Result) rethrows
        -> Result
    {
        try Scope.$singleton.withValue(Scope.singleton.clone(), operation: operation)
    }
}
