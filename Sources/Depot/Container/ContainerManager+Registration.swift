extension ContainerManager {
    /// What was registered for one factory from outside its declaration: a replacement factory,
    /// context overrides, and modifiers applied after `register`.
    ///
    /// Immutable, so a resolution takes it out of the lock as one reference, and `push()` can
    /// save the dictionary as it is; a change makes a new one (see `State.changeRegistration`).
    // @unchecked Sendable: its one stored property is a `let` and never changes; the closures in
    // it are called as `FactoryRegistration` says.
    @usableFromInline
    final class Registration: @unchecked Sendable {
        /// The registration's contents, as a value to change.
        struct Fields {
            /// A `FactoryRegistration<P, T>.Body`.
            var factory: Any?
            /// A `FactoryRegistration<P, T>.Body` for each context.
            var contexts: [FactoryContextType: Any] = [:]
            var scope: Scope?
            var timeToLive: Double?
            /// A `FactoryRegistration<P, T>.Decorator`.
            var decorator: Any?
            /// Set by the `once()` of a declaration that registers contexts: they were
            /// registered once, and the declaration does not register them again (FactoryKit's
            /// rule), so a test's override wins and `reset(options: .context)` clears them.
            var contextsRegisteredOnce = false

            var isEmpty: Bool {
                factory == nil && contexts.isEmpty && scope == nil && timeToLive == nil
                    && decorator == nil && !contextsRegisteredOnce
            }
        }

        /// The registration's contents, to change a copy.
        let fields: Fields

        init(_ fields: Fields) {
            self.fields = fields
        }

        /// A `FactoryRegistration<P, T>.Body`.
        var factory: Any? { fields.factory }
        var contexts: [FactoryContextType: Any] { fields.contexts }
        var contextsRegisteredOnce: Bool { fields.contextsRegisteredOnce }
        /// Whether a closure is registered: a replacement factory or a context.
        var makesInstances: Bool { fields.factory != nil || !fields.contexts.isEmpty }
        var scope: Scope? { fields.scope }
        var timeToLive: Double? { fields.timeToLive }
        @usableFromInline var hasDecorator: Bool { fields.decorator != nil }
        @usableFromInline var decorator: Any? { fields.decorator }
    }
}
