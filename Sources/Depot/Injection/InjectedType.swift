/// Resolves a type registered with ``Resolving/register(_:factory:)`` when the enclosing object
/// is initialised; `nil` if nothing is registered.
@propertyWrapper
public struct InjectedType<T> {
    private var dependency: T?

    /// Resolves `T` from `Container.shared`, if `Container` adopts ``Resolving``.
    public init() {
        dependency = (Container.shared as? any Resolving)?.resolve(T.self)
    }

    /// Resolves `T` from `container`, if it adopts ``Resolving``.
    public init(_ container: any ManagedContainer) {
        dependency = (container as? any Resolving)?.resolve(T.self)
    }

    /// The resolved value, or `nil`.
    public var wrappedValue: T? {
        get { dependency }
        set { dependency = newValue }
    }
}

extension InjectedType: @unchecked Sendable where T: Sendable {}

/// Injects a shared container itself.
@propertyWrapper
public struct InjectedContainer<C: SharedContainer>: Sendable {
    /// The container, `C.shared` when the enclosing object was initialised.
    public var wrappedValue: C

    /// Takes `C.shared`.
    public init() {
        wrappedValue = C.shared
    }

    /// Takes `type.shared`: `@InjectedContainer(MyContainer.self) var container`.
    public init(_ type: C.Type) {
        wrappedValue = type.shared
    }

    /// Forgets what `options` says in the container (nothing by default), as
    /// `container.manager.reset(options:)` does.
    public mutating func reset(options: FactoryResetOptions = .none) {
        wrappedValue.manager.reset(options: options)
    }
}
