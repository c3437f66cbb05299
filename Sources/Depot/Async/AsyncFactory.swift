/// Makes instances of `T` with an `async throws` closure: declared, scoped, overridden and
/// diagnosed like a ``Factory``, in the same container, and resolved with `try await`.
// @unchecked Sendable: it holds a `FactoryRegistration`, whose comment says why that is safe.
public struct AsyncFactory<T>: FactoryModifying, FactoryOverriding, @unchecked Sendable {
    /// The factory's container, key, closure and modifiers.
    public var registration: FactoryRegistration<Void, T>

    /// Makes an async factory of `container`.
    ///
    /// - Parameters:
    ///   - container: the container whose manager keeps the factory's registrations and caches.
    ///   - key: identifies the factory in its container; the property's name by default.
    ///   - factory: makes a new instance.
    ///   - file: the declaring file, `Module/File.swift`; leave the default. Its module is part
    ///     of the key, so two modules that declare one name and type declare two factories.
    @inlinable
    public init(
        _ container: any ManagedContainer, key: StaticString = #function,
        _ factory: nonisolated(nonsending) @escaping () async throws -> T,
        file: StaticString = #fileID
    ) {
        registration = FactoryRegistration(
            container: container, name: key, body: .async(factory), file: file)
    }

    /// The async factory `registration` describes.
    @inlinable
    init(_ registration: FactoryRegistration<Void, T>) { self.registration = registration }

    /// Resolves the factory's value, on the caller's actor.
    @inlinable
    public nonisolated(nonsending) func callAsFunction() async throws -> T { try await resolve() }

    /// Resolves the factory's value, on the caller's actor: a kept instance, or one the closure
    /// makes. Concurrent resolves of a caching scope wait for one creation.
    @inlinable
    public nonisolated(nonsending) func resolve() async throws -> T {
        try await registration.resolveAsync(())
    }

    /// The instance the factory's caching scope keeps now, for a synchronous factory to use:
    /// one that ``ManagedContainer/warmUp(_:)-(KeyPath<Self,AsyncFactory<T>>)`` (or an
    /// earlier resolve) created.
    ///
    /// - Throws: ``NotWarmedUpError``, naming the factory, when no instance exists yet, its
    ///   creation is still running, or its scope keeps none. It never waits.
    public func warmed() throws(NotWarmedUpError) -> T {
        try registration.keptValue(())
    }

    /// Replaces the factory's closure in its container; cached instances of it are dropped.
    ///
    /// - Returns: the factory; modifiers applied to it are kept with the registration.
    @discardableResult
    public func register(factory: nonisolated(nonsending) @escaping () async throws -> T) -> Self {
        var copy = self
        copy.registration.register(.async(factory))
        return copy
    }

    /// Overrides the factory when any of `contexts` holds (see ``FactoryContext``).
    @discardableResult
    public func context(
        _ contexts: FactoryContextType...,
        factory: nonisolated(nonsending) @escaping () async throws -> T
    ) -> Self {
        var copy = self
        copy.registration.register(.async(factory), for: contexts)
        return copy
    }
}

/// Makes instances of `T` from a parameter of type `P` with an `async throws` closure.
// @unchecked Sendable: it holds a `FactoryRegistration`, whose comment says why that is safe.
public struct AsyncParameterFactory<P, T>: FactoryModifying, FactoryOverriding,
    @unchecked Sendable
{
    /// The factory's container, key, closure and modifiers.
    public var registration: FactoryRegistration<P, T>

    /// Makes an async parameterised factory of `container`.
    @inlinable
    public init(
        _ container: any ManagedContainer, key: StaticString = #function,
        _ factory: nonisolated(nonsending) @escaping (P) async throws -> T,
        file: StaticString = #fileID
    ) {
        registration = FactoryRegistration(
            container: container, name: key, body: .asyncParameterised(factory), file: file)
    }

    /// Resolves the factory's value for `parameter`, on the caller's actor.
    @inlinable
    public nonisolated(nonsending) func callAsFunction(_ parameter: P) async throws -> T {
        try await resolve(parameter)
    }

    /// Resolves the factory's value for `parameter`, on the caller's actor.
    @inlinable
    public nonisolated(nonsending) func resolve(_ parameter: P) async throws -> T {
        try await registration.resolveAsync(parameter)
    }

    /// The instance kept for `parameter` now, as ``AsyncFactory/warmed()`` returns it.
    public func warmed(_ parameter: P) throws(NotWarmedUpError) -> T {
        try registration.keptValue(parameter)
    }

    /// Replaces the factory's closure in its container; cached instances of it are dropped.
    @discardableResult
    public func register(factory: nonisolated(nonsending) @escaping (P) async throws -> T) -> Self {
        var copy = self
        copy.registration.register(.asyncParameterised(factory))
        return copy
    }

    /// Overrides the factory when any of `contexts` holds (see ``FactoryContext``).
    @discardableResult
    public func context(
        _ contexts: FactoryContextType...,
        factory: nonisolated(nonsending) @escaping (P) async throws -> T
    ) -> Self {
        var copy = self
        copy.registration.register(.asyncParameterised(factory), for: contexts)
        return copy
    }
}
