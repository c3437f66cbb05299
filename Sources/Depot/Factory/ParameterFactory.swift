#if canImport(SwiftUI)
    import SwiftUI
#endif

/// Makes instances of `T` from a parameter of type `P` (use a tuple for several).
// @unchecked Sendable: it holds a `FactoryRegistration`, whose comment says why that is safe.
public struct ParameterFactory<P, T>: FactoryModifying, @unchecked Sendable {
    /// The factory's container, key, closure and modifiers.
    public var registration: FactoryRegistration<P, T>

    /// Makes a parameterised factory of `container`.
    @inlinable
    public init(
        _ container: any ManagedContainer, key: StaticString = #function,
        _ factory: @escaping (P) -> T, isolation: (any Actor)? = #isolation
    ) {
        registration = FactoryRegistration(
            container: container, name: key, body: .parameterised(factory), isolation: isolation)
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

    #if canImport(SwiftUI)
        /// Registers `factory`; the same as `register(factory:)`, returning a view for a
        /// preview's view builder.
        @discardableResult
        public func callAsFunction(factory: @escaping (P) -> T) -> EmptyView {
            register(factory: factory)
            return EmptyView()
        }

        /// Registers `factory` for a preview, in its view builder.
        @discardableResult
        public func preview(factory: @escaping (P) -> T) -> EmptyView {
            register(factory: factory)
            return EmptyView()
        }
    #else
        /// Registers `factory`; the same as `register(factory:)`.
        public func callAsFunction(factory: @escaping (P) -> T) {
            register(factory: factory)
        }
    #endif

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

    /// Overrides the factory when `argument` is a launch or runtime argument.
    @discardableResult
    public func onArg(_ argument: String, factory: @escaping (P) -> T) -> Self {
        context(.arg(argument), factory: factory)
    }

    /// Overrides the factory when any of `arguments` is a launch or runtime argument.
    @discardableResult
    public func onArgs(_ arguments: [String], factory: @escaping (P) -> T) -> Self {
        context(.args(arguments), factory: factory)
    }

    /// Overrides the factory in Xcode previews.
    @discardableResult
    public func onPreview(factory: @escaping (P) -> T) -> Self {
        context(.preview, factory: factory)
    }

    /// Overrides the factory while tests run.
    @discardableResult
    public func onTest(factory: @escaping (P) -> T) -> Self {
        context(.test, factory: factory)
    }

    /// Overrides the factory in debug builds.
    @discardableResult
    public func onDebug(factory: @escaping (P) -> T) -> Self {
        context(.debug, factory: factory)
    }

    /// Overrides the factory on simulators.
    @discardableResult
    public func onSimulator(factory: @escaping (P) -> T) -> Self {
        context(.simulator, factory: factory)
    }

    /// Overrides the factory on devices.
    @discardableResult
    public func onDevice(factory: @escaping (P) -> T) -> Self {
        context(.device, factory: factory)
    }
}
