// What a validation resolves in and with: the copies of managers, and, for `validate()` with no
// roots, the factories registered in a container, kept when they are registered.

extension Validation {
    /// A registered factory that needs no parameter, as `validate()` resolves it in a container.
    struct Declaration {
        let name: String
        let resolve: ((any ManagedContainer) -> Void)?
        let resolveAsync: ((any ManagedContainer) async throws -> Void)?
    }

    /// The container a kept ``Declaration`` names instead of its own, which keeps it: the
    /// validated container takes its place when it is resolved.
    static let placeholder: any ManagedContainer = Placeholder()

    private final class Placeholder: ManagedContainer {
        let manager = ContainerManager(realm: nil)
    }
}

extension FactoryRegistration {
    /// The factory, with `body` registered, as `validate()` resolves it; `nil` if it needs a
    /// parameter.
    func declaration(_ body: Body) -> Validation.Declaration? {
        guard P.self == Void.self else { return nil }
        var kept = self
        kept.body = body
        kept.container = Validation.placeholder
        kept.manager = Validation.placeholder.manager
        // Used as the registration it copies is: by resolves, one at a time per root.
        let unchecked = Unchecked(kept)
        func inContainer(_ container: any ManagedContainer) -> Self {
            var factory = unchecked.value
            factory.container = container
            factory.manager = container.manager
            return factory
        }
        let name = step(nil).description
        if isAsync {
            return .init(
                name: name, resolve: nil,
                resolveAsync: { _ = try await inContainer($0).resolveAsync(() as! P) })
        }
        return .init(
            name: name, resolve: { _ = inContainer($0).resolve(() as! P) }, resolveAsync: nil)
    }
}

extension ContainerManager {
    /// The registered factories that need no parameter, ordered by name.
    func registeredDeclarations() -> [Validation.Declaration] {
        state.withLock { Array($0.seldomUsed?.declarations.values ?? [:].values) }
            .sorted { $0.name < $1.name }
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
