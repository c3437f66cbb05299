/// A container whose `shared` is a task-local, so a lifetime scope can stand in for it while a
/// request (or any unit of work) runs: see `withLifetimeScope(_:)`.
public protocol TaskLocalContainer: SharedContainer, ScopingContainer {
    /// The task-local that holds ``SharedContainer/shared``: `$shared`.
    static var sharedTaskLocal: TaskLocal<Self> { get }
}

extension Container: TaskLocalContainer {
    /// `$shared`, the task-local that holds ``shared``.
    public static var sharedTaskLocal: TaskLocal<Container> { $shared }
}

extension TaskLocalContainer {
    /// Runs `body` with a new lifetime scope of this container (``ScopingContainer/newLifetimeScope()``) as the
    /// `shared` container of its type, for the task and the child tasks it starts, so that
    /// `@Injected` properties resolve from the scope; then shuts the scope down
    /// (``ManagedContainer/shutdown()``), also when `body` throws.
    ///
    /// One per request on a server: the scope's `.cached` instances are the request's, created
    /// once within it and disposed at its end; singletons stay the process's.
    ///
    /// ```swift
    /// let id = try await Container.shared.withLifetimeScope { scope in
    ///     try await handle(request, in: scope)
    /// }
    /// ```
    ///
    /// - Returns: what `body` returns. Errors of the scope's `onDispose` closures are logged
    ///   through the scope's manager's logger.
    public nonisolated(nonsending) func withLifetimeScope<Result>(
        _ body: nonisolated(nonsending) (Self) async throws -> Result
    ) async rethrows -> Result {
        let scope = newLifetimeScope()
        let result: Result
        do {
            result = try await Self.sharedTaskLocal.withValue(scope) { try await body(scope) }
        } catch {
            await scope.shutdown()
            throw error
        }
        await scope.shutdown()
        return result
    }

    /// Runs `body` with a new lifetime scope of this container as the `shared` container of its
    /// type, as the async `withLifetimeScope(_:)` does, for synchronous code; then resets
    /// the scope, also when `body` throws: the `onDispose` closures of what it kept run in a
    /// task started as this returns (a reset cannot wait for them).
    ///
    /// In async code, Swift picks this form for a closure that does not `await` (and warns
    /// that the `await` in front of the call has nothing to wait for).
    public func withLifetimeScope<Result>(_ body: (Self) throws -> Result) rethrows -> Result {
        let scope = newLifetimeScope()
        defer { scope.manager.reset(options: .scope) }
        return try Self.sharedTaskLocal.withValue(scope) { try body(scope) }
    }
}
