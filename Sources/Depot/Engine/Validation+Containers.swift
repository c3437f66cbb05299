// What a validation resolves in and with: the copies of managers, and, for `validate()` with no
// roots, the factories registered in a container.

extension Validation {
    /// A registered factory that needs no parameter, as `validate()` resolves it in a container.
    struct Declaration {
        let key: FactoryKey
        let resolve: ((any ManagedContainer) -> Void)?
        let resolveAsync: ((any ManagedContainer) async throws -> Void)?
    }
}

/// A registered closure (a `FactoryRegistration<P, T>.Body`), which `validate()` resolves.
protocol RegisteredBody {
    /// The closure as the factory `key`, if that needs no parameter.
    func declaration(as key: FactoryKey) -> Validation.Declaration?
}

extension FactoryRegistration.Body: RegisteredBody {
    func declaration(as key: FactoryKey) -> Validation.Declaration? {
        guard P.self == Void.self else { return nil }
        // Used as the registration it copies is: by resolves, one at a time per root.
        let body = Unchecked(self)
        func factory(in container: any ManagedContainer) -> FactoryRegistration {
            FactoryRegistration(container: container, key: key, body: body.value)
        }
        switch self {
        case .plain, .parameterised:
            return .init(
                key: key, resolve: { _ = factory(in: $0).resolve(() as! P) }, resolveAsync: nil)
        case .async, .asyncParameterised:
            return .init(
                key: key, resolve: nil,
                resolveAsync: { _ = try await factory(in: $0).resolveAsync(() as! P) })
        }
    }
}

extension ContainerManager {
    /// The factories registered here that need no parameter, resolved with what is registered
    /// for them (their declarations' modifiers are not known here), ordered by key.
    func registeredDeclarations() -> [Validation.Declaration] {
        state.withLock { state in
            state.registrations.keys.compactMap { key in
                (state.registrations[key]?.factory as? RegisteredBody)?.declaration(as: key)
            }
        }.sorted { $0.key.description < $1.key.description }
    }
}

extension ContainerManager {
    /// A copy of `original` for a validation: its registrations, contexts, parent and settings
    /// (with tracing off and logging to nowhere), empty caches, and singletons in `realm`.
    convenience init(validating original: ContainerManager, realm: SingletonRealm) {
        self.init(realm: realm, isValidationCopy: true)
        let inherited = original.inheritance
        var settings = inherited.settings.value
        (settings.trace, settings.logger) = (false, { _ in })
        inherit(
            inherited, settings: settings, realm: realm,
            isLifetimeScope: original.state.withLock { $0.isLifetimeScope })
    }

    /// The scope `factory` resolves in here: registered, declared or this container's default.
    func scope<P, T>(of factory: FactoryRegistration<P, T>) -> Scope {
        state.withLock { state in
            winningOption(
                declared: factory.declaredScope?.scope,
                registered: state.registrations[factory.key]?.scope, isOnce: factory.isOnce)
                ?? state.settings.defaultScope ?? Scope.unique
        }
    }
}
