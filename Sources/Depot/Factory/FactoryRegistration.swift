/// What a factory is: its container, its key, the closure that makes its value, and the
/// modifiers applied to it. ``Factory`` and ``ParameterFactory`` wrap one.
///
/// A plain value: applying a modifier in a factory's declaration changes this value only, with
/// no lock and no write to the container, so a factory's modifiers cost nothing per resolve.
/// Registrations (`register`, contexts, modifiers applied after `register`) are the things
/// kept in the container's ``ContainerManager``.
// The members the resolve path touches are @usableFromInline so that `resolve` can be
// @inlinable: specialised in the caller's module, it creates no generic metadata per call.
public struct FactoryRegistration<P, T>: Sendable {
    /// The closure that makes a value.
    @usableFromInline
    enum Body: Sendable {
        case plain(@Sendable () -> T)
        case parameterised(@Sendable (P) -> T)

        @inlinable
        func callAsFunction(_ parameter: P) -> T {
            switch self {
            case .plain(let make): make()
            case .parameterised(let make): make(parameter)
            }
        }
    }

    /// A decorator, called with every resolved value.
    @usableFromInline
    enum Decorator: Sendable {
        case value(@Sendable (T) -> Void)
        /// Called with the value and whether it was just created (not taken from a cache).
        case created(@Sendable (T, Bool) -> Void)

        @inlinable
        func callAsFunction(_ value: T, created: Bool) {
            switch self {
            case .value(let decorate): decorate(value)
            case .created(let decorate): decorate(value, created)
            }
        }
    }

    @usableFromInline var container: any ManagedContainer
    @usableFromInline var manager: ContainerManager
    /// The key and the type; traces and messages read the key's name back from it.
    @usableFromInline let key: FactoryKey
    @usableFromInline var body: Body
    // unowned(unsafe): scopes are never deallocated (see `Scope.init`), so a factory value
    // need not retain and release its scope on every resolve.
    @usableFromInline unowned(unsafe) var scope: Scope?
    @usableFromInline var timeToLive: Double?
    @usableFromInline var decorator: Decorator?
    /// Set by `scopeOnParameters` (where P is Hashable): the parameter is part of the cache key.
    @usableFromInline var scopesOnParameters = false
    @usableFromInline var isPromised = false
    /// Set on the value `register` returns, so modifiers applied to it are kept with the
    /// registration.
    @usableFromInline var persistsModifiers = false

    @inlinable
    init(container: any ManagedContainer, name: StaticString, body: Body) {
        self.container = container
        self.manager = container.manager
        self.key = FactoryKey(name: name, type: T.self)
        self.body = body
    }

    /// The step this factory adds to a resolution path.
    @inlinable
    func step(_ parameter: P?) -> ResolutionStep {
        ResolutionStep(
            manager: ObjectIdentifier(manager), key: key,
            parameter: P.self == Void.self ? nil : parameter.map { $0 as Any },
            containerType: Swift.type(of: container))
    }
}
