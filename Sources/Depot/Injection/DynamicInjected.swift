/// Resolves a dependency on every access, so it follows registrations and scope resets.
///
/// ```swift
/// final class Screen {
///     @DynamicInjected(\.session) var session
/// }
/// ```
@propertyWrapper
public struct DynamicInjected<T>: Sendable {
    /// The factory resolved on every access.
    public let factory: Factory<T>

    /// Resolves the factory at `keyPath` of `Container.shared` on every access.
    public init(_ keyPath: KeyPath<Container, Factory<T>>) {
        factory = Container.shared[keyPath: keyPath]
    }

    /// Resolves the factory at `keyPath` of `C.shared` on every access.
    public init<C: SharedContainer>(_ keyPath: KeyPath<C, Factory<T>>) {
        factory = C.shared[keyPath: keyPath]
    }

    /// A freshly resolved value.
    public var wrappedValue: T { factory() }

    /// The wrapper itself: `$session.factory`, `$session.resolve(reset:)`.
    public var projectedValue: DynamicInjected<T> { self }

    /// Resets the factory as `reset` says, so the next access resolves anew.
    public func resolve(reset: FactoryResetOptions = .none) {
        factory.reset(reset)
    }
}
