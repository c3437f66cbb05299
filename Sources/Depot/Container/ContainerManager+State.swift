extension ContainerManager {
    /// Everything a manager guards with its lock.
    struct State {
        var registrations: [FactoryKey: Registration] = [:]
        var instances = InstanceTable()
        var isAutoRegistered = false
        var isAutoRegistering = false
        var defaultScope: Scope?
        var trace = false
        var logger: @Sendable (String) -> Void = { print($0) }
        var promiseTriggersError = FactoryContext.isDebugBuild
        var decorator: (@Sendable (Any) -> Void)?
        var clock = Clock.monotonic
        var snapshots: [Snapshot] = []
        /// The factories already warned about, so each warning is logged once.
        var warned: Set<FactoryKey> = []
    }

    /// What `push()` saves.
    struct Snapshot {
        let registrations: [FactoryKey: Registration]
        let instances: [InstanceKey: InstanceTable.Cell]
    }

    /// What was registered for one factory from outside its declaration: a replacement factory,
    /// context overrides, and modifiers applied after `register`.
    struct Registration {
        /// A `@Sendable (P) -> T`.
        var factory: Any?
        /// `@Sendable (P) -> T` for each context.
        var contexts: [FactoryContextType: Any] = [:]
        var scope: Scope?
        var timeToLive: Double?
        /// A `FactoryRegistration<P, T>.Decorator`.
        var decorator: Any?

        func withoutFactory() -> Registration? {
            guard !contexts.isEmpty else { return nil }
            return Registration(factory: nil, contexts: contexts)
        }

        func withoutContexts() -> Registration? {
            var copy = self
            copy.contexts = [:]
            return copy.factory == nil && copy.scope == nil && copy.timeToLive == nil
                && copy.decorator == nil ? nil : copy
        }
    }
}
