/// Injects a parameterised factory, to call with its parameter whenever a value is needed.
@propertyWrapper
public struct InjectedFactory<P, T>: Sendable {
    /// The factory.
    public let wrappedValue: ParameterFactory<P, T>

    /// Injects the factory at `keyPath` of `Container.shared`.
    public init(_ keyPath: KeyPath<Container, ParameterFactory<P, T>>) {
        wrappedValue = Container.shared[keyPath: keyPath]
    }

    /// Injects the factory at `keyPath` of `C.shared`.
    public init<C: SharedContainer>(_ keyPath: KeyPath<C, ParameterFactory<P, T>>) {
        wrappedValue = C.shared[keyPath: keyPath]
    }
}
