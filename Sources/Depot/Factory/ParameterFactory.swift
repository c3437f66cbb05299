/// Makes instances of `T` from a parameter of type `P` (use a tuple for several).
// @unchecked Sendable: it holds a `FactoryRegistration`, whose comment says why that is safe.
public struct ParameterFactory<P, T>: FactoryModifying, FactoryOverriding, @unchecked Sendable {
    /// The factory's container, key, closure and modifiers.
    public var registration: FactoryRegistration<P, T>

    /// Makes a parameterised factory of `container`.
    @inlinable
    public init(
        _ container: any ManagedContainer, key: StaticString = #function,
        _ factory: @escaping (P) -> T, isolation: (any Actor)? = #isolation,
        file: StaticString = #fileID
    ) {
        registration = FactoryRegistration(
            container: container, name: key, body: .parameterised(factory), isolation: isolation,
            file: file)
    }

    /// Resolves the factory's value for `parameter`.
    @inlinable
    public func callAsFunction(_ parameter: P) -> T { resolve(parameter) }

    /// Resolves the factory's value for `parameter`.
    @inlinable
    public func resolve(_ parameter: P) -> T { registration.resolve(parameter) }

    /// Replaces the factory's closure in its container; cached instances of it are dropped.
    @discardableResult
    public func register(factory: @escaping (P) -> T) -> Self {
        var copy = self
        copy.registration.register(.parameterised(factory))
        return copy
    }

    /// Resolves on the main actor: for factories whose closure is isolated to it.
    @MainActor
    public func resolveOnMainActor(_ parameters: P) -> T { resolve(parameters) }

    /// Resolves on `isolation`, an actor: for factories whose closure is isolated to a global
    /// actor.
    public func resolveOnGlobalActor(_ isolation: isolated (any Actor), parameters: P) -> T
    where P: Sendable, T: Sendable {
        resolve(parameters)
    }

    /// Overrides the factory when any of `contexts` holds.
    @discardableResult
    public func context(_ contexts: FactoryContextType..., factory: @escaping (P) -> T)
        -> Self
    {
        var copy = self
        copy.registration.register(.parameterised(factory), for: contexts)
        return copy
    }
}
