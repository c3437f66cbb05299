#if canImport(SwiftUI)
    import SwiftUI
#endif

/// The context overrides every kind of factory shares (``Factory``, ``ParameterFactory``,
/// ``AsyncFactory``, ``AsyncParameterFactory``): each registers `factory` for one context.
public protocol FactoryOverriding {
    /// The factory's closure type.
    associatedtype Closure

    /// Overrides the factory when any of `contexts` holds (see ``FactoryContext``).
    @discardableResult
    func context(_ contexts: FactoryContextType..., factory: Closure) -> Self

    /// Replaces the factory's closure in its container; cached instances of it are dropped.
    @discardableResult
    func register(factory: Closure) -> Self
}

extension FactoryOverriding {
    /// Overrides the factory when `argument` is a launch or runtime argument.
    @discardableResult
    public func onArg(_ argument: String, factory: Closure) -> Self {
        context(.arg(argument), factory: factory)
    }

    /// Overrides the factory when any of `arguments` is a launch or runtime argument.
    @discardableResult
    public func onArgs(_ arguments: [String], factory: Closure) -> Self {
        context(.args(arguments), factory: factory)
    }

    /// Overrides the factory in Xcode previews.
    @discardableResult
    public func onPreview(factory: Closure) -> Self { context(.preview, factory: factory) }

    /// Overrides the factory while tests run.
    @discardableResult
    public func onTest(factory: Closure) -> Self { context(.test, factory: factory) }

    /// Overrides the factory in debug builds.
    @discardableResult
    public func onDebug(factory: Closure) -> Self { context(.debug, factory: factory) }

    /// Overrides the factory on simulators.
    @discardableResult
    public func onSimulator(factory: Closure) -> Self { context(.simulator, factory: factory) }

    /// Overrides the factory on devices.
    @discardableResult
    public func onDevice(factory: Closure) -> Self { context(.device, factory: factory) }
}

extension FactoryOverriding {
    #if canImport(SwiftUI)
        /// Registers `factory`; `container.api { MockAPI() }` is
        /// `container.api.register { MockAPI() }`. Returns a view, so it can stand in a preview's
        /// view builder.
        @discardableResult
        public func callAsFunction(factory: Closure) -> EmptyView {
            register(factory: factory)
            return EmptyView()
        }

        /// Registers `factory` for a preview, in its view builder.
        ///
        /// ```swift
        /// #Preview {
        ///     Container.shared.api.preview { MockAPI() }
        ///     ContentView()
        /// }
        /// ```
        @discardableResult
        public func preview(factory: Closure) -> EmptyView {
            register(factory: factory)
            return EmptyView()
        }
    #else
        /// Registers `factory`; `container.api { MockAPI() }` is
        /// `container.api.register { MockAPI() }`.
        public func callAsFunction(factory: Closure) {
            register(factory: factory)
        }
    #endif
}
