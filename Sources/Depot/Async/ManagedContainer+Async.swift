extension ManagedContainer {
    /// Declares an async factory: `self { try await Database.connect() }`, in a property of
    /// type ``AsyncFactory``.
    ///
    /// - Parameters:
    ///   - key: the factory's key; the property's name by default.
    ///   - factory: makes a new instance.
    ///   - file: the declaring file, `Module/File.swift`; leave the default. Its module is part
    ///     of the key, so two modules that declare one name and type declare two factories.
    @inlinable
    public func callAsFunction<T>(
        key: StaticString = #function,
        _ factory: nonisolated(nonsending) @escaping () async throws -> T,
        file: StaticString = #fileID
    ) -> AsyncFactory<T> {
        AsyncFactory(self, key: key, factory, file: file)
    }

    /// Declares an async factory that takes a parameter.
    @inlinable
    public func callAsFunction<P, T>(
        key: StaticString = #function,
        _ factory: nonisolated(nonsending) @escaping (P) async throws -> T,
        file: StaticString = #fileID
    ) -> AsyncParameterFactory<P, T> {
        AsyncParameterFactory(self, key: key, factory, file: file)
    }

    /// Declares an async factory; the same as `self { ... }`.
    @inlinable
    public func makes<T>(
        key: StaticString = #function,
        _ factory: nonisolated(nonsending) @escaping () async throws -> T,
        file: StaticString = #fileID
    ) -> AsyncFactory<T> {
        AsyncFactory(self, key: key, factory, file: file)
    }

    /// Declares an async parameterised factory; the same as `self { (p: P) in ... }`.
    @inlinable
    public func makes<P, T>(
        key: StaticString = #function,
        _ factory: nonisolated(nonsending) @escaping (P) async throws -> T,
        file: StaticString = #fileID
    ) -> AsyncParameterFactory<P, T> {
        AsyncParameterFactory(self, key: key, factory, file: file)
    }

    /// Resolves the async factories at `keyPaths`, one after another, so that their caching
    /// scopes keep instances before anyone asks: a synchronous factory can then use them
    /// through ``AsyncFactory/warmed()``.
    ///
    /// ```swift
    /// try await Container.shared.warmUp(\.database, \.tokenStore)
    /// ```
    ///
    /// - Throws: the first error a factory throws; the factories after it are not resolved.
    public nonisolated(nonsending) func warmUp<each T>(
        _ keyPaths: repeat KeyPath<Self, AsyncFactory<each T>>
    ) async throws {
        for keyPath in repeat each keyPaths {
            _ = try await self[keyPath: keyPath].resolve()
        }
    }

    /// Tears down everything this container keeps: runs the `onDispose` closure of each kept
    /// instance, newest first, one after another, each exactly once, all of them even when one
    /// throws; then the container is empty (its registrations stay) and usable.
    ///
    /// Singletons live in the process, not in the container: ``Scope/shutdown()`` on
    /// `Scope.singleton` tears them down.
    ///
    /// - Returns: the errors the closures threw, in the order they ran; each is also logged
    ///   through the manager's logger.
    @discardableResult
    public func shutdown() async -> [DisposalError] {
        await manager.shutdown()
    }
}

extension Scope {
    /// Tears down what this scope keeps, as ``ManagedContainer/shutdown()`` does for a
    /// container: in every container (for process-wide scopes such as `Scope.singleton`, in
    /// the current singleton storage), newest first, each exactly once.
    ///
    /// - Returns: the errors the `onDispose` closures threw, in the order they ran; each is
    ///   also logged through the logger of the container that made the instance.
    @discardableResult
    public func shutdown() async -> [DisposalError] {
        var disposals: [Disposal] = []
        switch placement {
        case .none, .graph:
            return []
        case .process:
            let realm = (self as? Singleton)?.isolatedRealm ?? SingletonRealm.current
            disposals = realm.instances.withLock { table in
                let taken = table.takeDisposals(of: identity)
                table.removeInstances(of: identity)
                return taken
            }
        case .container:
            for cache in holdingCaches() {
                disposals += cache.withLock { state in
                    let taken = state.instances.takeDisposals(of: self)
                    state.instances.removeInstances(of: self)
                    return taken
                }
            }
        }
        return await Disposal.run(disposals)
    }
}

extension FactoryModifying where T: Sendable {
    /// Tears down a kept instance: `dispose` runs with it when its container shuts down
    /// (``ManagedContainer/shutdown()``), its scope does (``Scope/shutdown()``), or a reset or
    /// a new registration drops it.
    ///
    /// ```swift
    /// var database: AsyncFactory<Database> {
    ///     self { try await Database.open() }.singleton.onDispose { try await $0.close() }
    /// }
    /// ```
    ///
    /// For scopes that keep instances strongly (`.cached`, `.singleton`, custom scopes,
    /// `timeToLive`). A weak scope does not own its instances, so it does not dispose them;
    /// `.unique` and `.graph` keep none.
    ///
    /// `dispose` is kept with the instance, in its container: if it captures the container
    /// (`self`), the container keeps itself alive until `shutdown()` or a reset drops the
    /// instance. Have it use what the instance holds (`$0.close()`).
    @inlinable
    public consuming func onDispose(
        _ dispose: @escaping @Sendable (T) async throws -> Void
    ) -> Self {
        registration.changeOptions { $0.disposer = { try await dispose($0 as! T) } }
        return self
    }
}
