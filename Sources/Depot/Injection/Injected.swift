/// Resolves a dependency when the enclosing object is initialised.
@propertyWrapper
public struct Injected<T> {
    private var dependency: T
    /// The factory the value came from.
    public private(set) var factory: Factory<T>

    /// Resolves the factory at `keyPath` of `Container.shared`.
    // Inlinable, like the two below, so that the resolve is specialised for `T` where the
    // property is declared, as a factory called directly is.
    @inlinable
    public init(_ keyPath: KeyPath<Container, Factory<T>>) {
        let factory = Container.shared[keyPath: keyPath]
        self.init(
            factory: factory, value: ResolutionFrame.inject(joining: nil) { factory() })
    }

    /// Resolves the factory at `keyPath` of `C.shared`.
    @inlinable
    public init<C: SharedContainer>(_ keyPath: KeyPath<C, Factory<T>>) {
        let factory = C.shared[keyPath: keyPath]
        self.init(
            factory: factory, value: ResolutionFrame.inject(joining: nil) { factory() })
    }

    @usableFromInline
    init(factory: Factory<T>, value: T) {
        self.factory = factory
        self.dependency = value
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
        dependency = ResolutionFrame.inject(joining: nil) { factory() }
    }
}

extension Injected: @unchecked Sendable where T: Sendable {}
