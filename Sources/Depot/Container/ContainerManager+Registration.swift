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
            var scope: Scope?
            /// What few registrations set, in a box of its own, so that a registration of a
            /// replacement factory (most are) stays small; `nil` while all of it is empty.
            private var seldomBox: SeldomBox?

            init(_ seldom: Seldom = Seldom()) {
                self.seldom = seldom
            }

            // The getters read the box, if any, field by field: every resolve of a registered
            // factory reads them, and most registrations have no box. Changes go through
            // `seldom`.

            /// A `FactoryRegistration<P, T>.Body` for each context.
            var contexts: [FactoryContextType: Any] { seldomBox?.seldom.contexts ?? [:] }
            var timeToLive: Double? { seldomBox?.seldom.timeToLive }
            /// A `FactoryRegistration<P, T>.Decorator`.
            var decorator: Any? { seldomBox?.seldom.decorator }
            /// Set by the `once()` of a declaration that registers contexts: they were
            /// registered once, and the declaration does not register them again (FactoryKit's
            /// rule), so a test's override wins and `reset(options: .context)` clears them.
            var contextsRegisteredOnce: Bool { seldomBox?.seldom.contextsRegisteredOnce ?? false }
            /// A collection's contributions, by the contributed factory (`contribute(_:to:)`);
            /// `nil` for one removed here, which hides a parent's.
            var contributions: [FactoryKey: Contribution?] {
                seldomBox?.seldom.contributions ?? [:]
            }

            var isEmpty: Bool { factory == nil && scope == nil && seldomBox == nil }

            /// The box's contents; a change makes a new box, so copies never share a change.
            var seldom: Seldom {
                get { seldomBox?.seldom ?? Seldom() }
                set { seldomBox = newValue.isEmpty ? nil : SeldomBox(newValue) }
            }
        }

        struct Seldom {
            var contexts: [FactoryContextType: Any] = [:]
            var timeToLive: Double?
            var decorator: Any?
            var contextsRegisteredOnce = false
            var contributions: [FactoryKey: Contribution?] = [:]

            var isEmpty: Bool {
                contexts.isEmpty && timeToLive == nil && decorator == nil
                    && !contextsRegisteredOnce && contributions.isEmpty
            }
        }

        /// An immutable box for `Seldom`.
        final class SeldomBox {
            let seldom: Seldom
            init(_ seldom: Seldom) { self.seldom = seldom }
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
        /// Whether only contexts are registered: `reset(options: .registration)` keeps it all.
        var hasOnlyContexts: Bool {
            factory == nil && scope == nil && timeToLive == nil && !hasDecorator
        }
        /// Whether a closure is registered: a replacement factory, a context or a contribution.
        var makesInstances: Bool {
            fields.factory != nil || !fields.contexts.isEmpty || !fields.contributions.isEmpty
        }
        var scope: Scope? { fields.scope }
        var timeToLive: Double? { fields.timeToLive }
        @usableFromInline var hasDecorator: Bool { fields.decorator != nil }
        @usableFromInline var decorator: Any? { fields.decorator }
    }
}
