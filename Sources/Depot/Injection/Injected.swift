/// Resolves a dependency when the enclosing object is initialised.
///
/// ```swift
/// final class ViewModel {
///     @Injected(\.api) var api                        // from Container.shared
///     @Injected(\ServiceContainer.store) var store    // from another shared container
/// }
/// ```
@propertyWrapper
public struct Injected<T> {
    private var dependency: T
    /// The factory the value came from.
    public private(set) var factory: Factory<T>

    /// Resolves the factory at `keyPath` of `Container.shared`.
    public init(_ keyPath: KeyPath<Container, Factory<T>>) {
        self.init(factory: Container.shared[keyPath: keyPath])
    }

    /// Resolves the factory at `keyPath` of `C.shared`.
    public init<C: SharedContainer>(_ keyPath: KeyPath<C, Factory<T>>) {
        self.init(factory: C.shared[keyPath: keyPath])
    }

    private init(factory: Factory<T>) {
        self.factory = factory
        self.dependency = factory()
    }

    /// The resolved value; setting it replaces it in this object only.
    public var wrappedValue: T {
        get { dependency }
        set { dependency = newValue }
    }

    /// The wrapper itself: `$api.factory`, `$api.resolve(reset:)`.
    public var projectedValue: Injected<T> {
        get { self }
        set { self = newValue }
    }

    /// Resolves the value again, first resetting the factory as `reset` says.
    public mutating func resolve(reset: FactoryResetOptions = .none) {
        factory.reset(reset)
        dependency = factory()
    }
}

extension Injected: @unchecked Sendable where T: Sendable {}
