/// A container that also registers and resolves factories by type, as Swinject does.
public protocol Resolving: ManagedContainer {}

extension Resolving {
    /// Registers `factory` for `type`, replacing any earlier registration for it.
    ///
    /// - Returns: the factory; modifiers applied to it (`.singleton`, ...) are kept with the
    ///   registration.
    @discardableResult
    public func register<T>(_ type: T.Type = T.self, factory: @escaping @Sendable () -> T)
        -> Factory<T>
    {
        Factory<T>(self, key: "Resolving.register", factory).register(factory: factory)
    }

    /// The factory registered for `type`, or `nil`.
    public func factory<T>(_ type: T.Type = T.self) -> Factory<T>? {
        let factory = Factory<T>(self, key: "Resolving.register") {
            Validation.stop(
                .missingRegistration, "Depot: \(Self.self) has no registration for \(T.self)",
                fix: "Register it before resolving: container.register(\(T.self).self) { ... }.")
        }
        return factory.registration.isRegistered ? factory : nil
    }

    /// The instance of `type`, from its registration, or `nil` if nothing is registered.
    public func resolve<T>(_ type: T.Type = T.self) -> T? {
        factory(type)?()
    }
}
