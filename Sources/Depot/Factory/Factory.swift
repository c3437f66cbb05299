/// A factory's closure, as FactoryKit names it: plain, so that it inherits the isolation of the
/// property it is written in.
public typealias VoidFactoryType<T> = () -> T

/// A parameterised factory's closure, as FactoryKit names it.
public typealias ParameterFactoryType<P, T> = (P) -> T

/// Makes instances of `T`: declared as a computed property in a container extension, resolved
/// by calling it.
// @unchecked Sendable: it holds a `FactoryRegistration`, whose comment says why that is safe.
public struct Factory<T>: FactoryModifying, FactoryOverriding, @unchecked Sendable {
    /// The factory's container, key, closure and modifiers.
    public var registration: FactoryRegistration<Void, T>

    /// Makes a factory of `container`.
    ///
    /// - Parameters:
    ///   - container: the container whose manager keeps the factory's registrations and caches.
    ///   - key: identifies the factory in its container; the property's name by default.
    ///   - factory: makes a new instance.
    ///   - isolation: the actor the declaration is isolated to, if any; leave the default.
    ///     Debug builds check that a factory declared on an actor is resolved on it.
    ///   - file: the declaring file, `Module/File.swift`; leave the default. Its module is part
    ///     of the key, so two modules that declare one name and type declare two factories.
    @inlinable
    public init(
        _ container: any ManagedContainer, key: StaticString = #function,
        _ factory: @escaping () -> T, isolation: (any Actor)? = #isolation,
        file: StaticString = #fileID
    ) {
        registration = FactoryRegistration(
            container: container, name: key, body: .plain(factory), isolation: isolation,
            file: file)
    }

    /// The factory `registration` describes.
    @inlinable
    init(_ registration: FactoryRegistration<Void, T>) { self.registration = registration }

    /// Resolves the factory's value.
    @inlinable
    public func callAsFunction() -> T { resolve() }

    /// Resolves the factory's value.
    @inlinable
    public func resolve() -> T { registration.resolve(()) }

    /// Replaces the factory's closure in its container; cached instances of it are dropped.
    ///
    /// - Returns: the factory; modifiers applied to it are kept with the registration.
    @discardableResult
    public func register(factory: @escaping () -> T) -> Self {
        var copy = self
        copy.registration.register(.plain(factory))
        return copy
    }

    /// Resolves on the main actor: for factories whose closure is isolated to it.
    @MainActor
    public func resolveOnMainActor() -> T { resolve() }

    /// Resolves on `isolation`, an actor: for factories whose closure is isolated to a global
    /// actor, `await factory.resolveOnGlobalActor(BackgroundActor.shared)`.
    public func resolveOnGlobalActor(_ isolation: isolated (any Actor)) -> T where T: Sendable {
        resolve()
    }

    /// Overrides the factory when any of `contexts` holds (see ``FactoryContext``).
    @discardableResult
    public func context(_ contexts: FactoryContextType..., factory: @escaping () -> T)
        -> Self
    {
        var copy = self
        copy.registration.register(.plain(factory), for: contexts)
        return copy
    }
}
