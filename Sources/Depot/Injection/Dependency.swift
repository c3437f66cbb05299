/// Resolves the factory at `keyPath` of `Container.shared`.
///
/// ```swift
/// let api = dependency(\.api)
/// ```
public func dependency<T>(_ keyPath: KeyPath<Container, Factory<T>>) -> T {
    Container.shared[keyPath: keyPath]()
}

/// Resolves the factory at `keyPath` of `C.shared`.
public func dependency<C: SharedContainer, T>(_ keyPath: KeyPath<C, Factory<T>>) -> T {
    C.shared[keyPath: keyPath]()
}

/// Resolves the parameterised factory at `keyPath` of `Container.shared` for `parameter`.
public func dependency<P, T>(
    _ keyPath: KeyPath<Container, ParameterFactory<P, T>>, parameter: P
) -> T {
    Container.shared[keyPath: keyPath](parameter)
}

/// Resolves the parameterised factory at `keyPath` of `C.shared` for `parameter`.
public func dependency<C: SharedContainer, P, T>(
    _ keyPath: KeyPath<C, ParameterFactory<P, T>>, parameter: P
) -> T {
    C.shared[keyPath: keyPath](parameter)
}

/// Resolves the factory at `keyPath` of `Container.shared`: FactoryKit's other name for
/// `dependency(_:)`.
public func resolve<T>(_ keyPath: KeyPath<Container, Factory<T>>) -> T {
    Container.shared[keyPath: keyPath]()
}

/// Resolves the factory at `keyPath` of `C.shared`.
public func resolve<C: SharedContainer, T>(_ keyPath: KeyPath<C, Factory<T>>) -> T {
    C.shared[keyPath: keyPath]()
}
