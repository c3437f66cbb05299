/// What a factory is: its container, its key, the closure that makes its value, and the
/// modifiers applied to it. ``Factory`` and ``ParameterFactory`` wrap one.
///
/// A plain value: applying a modifier in a factory's declaration changes this value only, with
/// no lock and no write to the container, so a factory's modifiers cost nothing per resolve.
/// Registrations (`register`, contexts, modifiers applied after `register`) are the things
/// kept in the container's ``ContainerManager``.
public struct FactoryRegistration<P, T>: Sendable {
    /// The closure that makes a value.
    enum Body: Sendable {
        case plain(@Sendable () -> T)
        case parameterised(@Sendable (P) -> T)

        @inline(__always)
        func callAsFunction(_ parameter: P) -> T {
            switch self {
            case .plain(let make): make()
            case .parameterised(let make): make(parameter)
            }
        }
    }

    /// A decorator, called with every resolved value.
    enum Decorator: Sendable {
        case value(@Sendable (T) -> Void)
        /// Called with the value and whether it was just created (not taken from a cache).
        case created(@Sendable (T, Bool) -> Void)

        func callAsFunction(_ value: T, created: Bool) {
            switch self {
            case .value(let decorate): decorate(value)
            case .created(let decorate): decorate(value, created)
            }
        }
    }

    let container: any ManagedContainer
    let manager: ContainerManager
    let key: FactoryKey
    let name: StaticString
    var body: Body
    var scope: Scope?
    var timeToLive: Double?
    var decorator: Decorator?
    /// Set by `scopeOnParameters` (where P is Hashable): the parameter is part of the cache key.
    var scopesOnParameters = false
    var isPromised = false
    /// Set on the value `register` returns, so modifiers applied to it are kept with the
    /// registration.
    var persistsModifiers = false

    init(container: any ManagedContainer, name: StaticString, body: Body) {
        self.container = container
        self.manager = container.manager
        self.key = FactoryKey(name: name, type: T.self)
        self.name = name
        self.body = body
    }

    /// The step this factory adds to a resolution path.
    func step(_ parameter: P?) -> ResolutionStep {
        ResolutionStep(
            manager: ObjectIdentifier(manager), key: key,
            parameter: P.self == Void.self ? nil : parameter.map { $0 as Any },
            containerType: Swift.type(of: container), name: name, valueType: T.self)
    }

    /// Whether a factory has been registered for this key in its container.
    var isRegistered: Bool {
        manager.autoRegisterIfNeeded(container)
        return manager.state.withLock { $0.registrations[key]?.factory != nil }
    }

    /// Changes a modifier's value here and, on a value returned by `register`, in the
    /// container's registration too.
    mutating func modify(
        _ change: (inout FactoryRegistration) -> Void,
        persisting persist: (inout ContainerManager.Registration) -> Void
    ) {
        change(&self)
        guard persistsModifiers else { return }
        let key = key
        manager.state.withLock { state in
            persist(&state.registrations[key, default: .init()])
            state.instances.removeAll { instance, _ in instance.factory == key }
        }
    }

    /// Replaces the factory's closure in its container.
    mutating func register(_ body: Body) {
        manager.autoRegisterIfNeeded(container)
        let key = key
        manager.state.withLock { state in
            state.registrations[key, default: .init()].factory = body
            state.instances.removeAll { instance, _ in instance.factory == key }
        }
        removeSingletons()
        persistsModifiers = true
    }

    /// Adds context overrides in the container.
    func register(_ body: Body, for contexts: [FactoryContextType]) {
        manager.autoRegisterIfNeeded(container)
        let key = key
        manager.state.withLock { state in
            for context in contexts {
                state.registrations[key, default: .init()].contexts[context] = body
            }
        }
    }

    /// Forgets what `options` says for this factory in its container.
    func reset(_ options: FactoryResetOptions) {
        let key = key
        manager.state.withLock { state in
            switch options {
            case .none:
                return
            case .all:
                state.registrations[key] = nil
            case .registration:
                state.registrations[key] = state.registrations[key]?.withoutFactory()
            case .context:
                state.registrations[key] = state.registrations[key]?.withoutContexts()
            case .scope:
                break
            }
            if options == .all || options == .scope {
                state.instances.removeAll { instance, _ in instance.factory == key }
            }
        }
        if options == .all || options == .scope {
            removeSingletons()
        }
    }

    private func removeSingletons() {
        let key = key
        let owner = ObjectIdentifier(Swift.type(of: container))
        manager.realm.instances.withLock { table in
            table.removeAll { instance, _ in instance.factory == key && instance.owner == owner }
        }
    }
}
