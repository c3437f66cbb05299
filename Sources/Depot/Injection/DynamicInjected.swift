/// Resolves a dependency on every access, so it follows registrations and scope resets: a
/// ``Provider`` as a property wrapper, which joins the graph it was made in.
@propertyWrapper
public struct DynamicInjected<T>: Sendable {
    /// The factory resolved on every access.
    public var factory: Factory<T> { provider.factory }
    private let provider: Provider<T>

    /// Resolves the factory at `keyPath` of `Container.shared` on every access.
    public init(_ keyPath: KeyPath<Container, Factory<T>>) {
        provider = Container.shared[keyPath: keyPath].provider
    }

    /// Resolves the factory at `keyPath` of `C.shared` on every access.
    public init<C: SharedContainer>(_ keyPath: KeyPath<C, Factory<T>>) {
        provider = C.shared[keyPath: keyPath].provider
    }

    /// A freshly resolved value.
    public var wrappedValue: T { provider.value }

    /// The factory, as in FactoryKit: `$session.resolve()` resolves a new value now,
    /// `$session.reset()` forgets its cached instance.
    public var projectedValue: Factory<T> { factory }

    /// Resets the factory as `reset` says, so the next access resolves anew.
    public func resolve(reset: FactoryResetOptions = .none) {
        factory.reset(reset)
    }
}
