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
            var contributions: [FactoryKey: Addition?] {
                seldomBox?.seldom.contributions ?? [:]
            }
            /// The decorators that wrap the factory's value (`decorate(_:order:name:_:)`), by
            /// name (`FactoryKey.decorator(_:)`); `nil` for one removed here, which hides a
            /// parent's.
            var decorations: [FactoryKey: Addition?] { seldomBox?.seldom.decorations ?? [:] }
            var hasDecorations: Bool { seldomBox?.seldom.decorations.isEmpty == false }

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
            var contributions: [FactoryKey: Addition?] = [:]
            var decorations: [FactoryKey: Addition?] = [:]

            var isEmpty: Bool {
                contexts.isEmpty && timeToLive == nil && decorator == nil
                    && !contextsRegisteredOnce && contributions.isEmpty && decorations.isEmpty
            }

            /// What a factory's registration keeps when its closure and modifiers go
            /// (`reset(options: .registration)`): its contexts and what other modules added.
            var withoutFactory: Seldom {
                Seldom(
                    contexts: contexts, contextsRegisteredOnce: contextsRegisteredOnce,
                    contributions: contributions, decorations: decorations)
            }
        }

        /// An immutable box for `Seldom`.
        final class SeldomBox {
            let seldom: Seldom
            init(_ seldom: Seldom) { self.seldom = seldom }
        }

        /// The registration's contents, to change a copy.
        let fields: Fields
        /// Whether it was made inside `autoRegister()`: the app's own, which a strict test
        /// counts as live.
        let isAutoRegistered: Bool

        init(_ fields: Fields, isAutoRegistered: Bool = false) {
            self.fields = fields
            self.isAutoRegistered = isAutoRegistered
        }

        /// A `FactoryRegistration<P, T>.Body`.
        var factory: Any? { fields.factory }
        var contexts: [FactoryContextType: Any] { fields.contexts }
        var contextsRegisteredOnce: Bool { fields.contextsRegisteredOnce }
        /// Whether only contexts are registered: `reset(options: .registration)` keeps it all.
        var hasOnlyContexts: Bool {
            factory == nil && scope == nil && timeToLive == nil && !hasDecorator
        }
        /// Whether a closure is registered: a replacement factory, a context, a contribution or
        /// a decorator.
        var makesInstances: Bool {
            fields.factory != nil || !fields.contexts.isEmpty || !fields.contributions.isEmpty
                || fields.hasDecorations
        }
        /// Whether it changes a hit of a declaration with no modifiers but its built-in scope
        /// (whose scope wins over a registered one): a hit checks a time to live's age, and
        /// runs a decorator. A registered closure or context only changes what a miss makes.
        var changesPlainHit: Bool { timeToLive != nil || hasDecorator }
        var scope: Scope? { fields.scope }
        var timeToLive: Double? { fields.timeToLive }
        @usableFromInline var hasDecorator: Bool { fields.decorator != nil }
        /// Whether decorators (`decorate(_:order:name:_:)`) are kept here, or removals.
        var hasDecorations: Bool { fields.hasDecorations }
        @usableFromInline var decorator: Any? { fields.decorator }
    }
}

// Running a container's `autoRegister()` once, before its first use.
extension ContainerManager {
    /// Runs the container's `autoRegister()` if it has not run since the manager was made or its
    /// registrations were reset. Other threads wait for it.
    ///
    /// - Returns: `true` when the calling thread is inside `autoRegister()` itself (it resolves or
    ///   registers while registering), so it must go on without waiting for itself.
    @discardableResult
    @usableFromInline
    func autoRegisterIfNeeded(_ container: any ManagedContainer) -> Bool {
        // Read first, under the lock alone: once it has run, as nearly always, there is no gate
        // to take; nor where there is nothing to run (asked only then: a conformance check
        // costs more than the lock).
        let isDone = state.withLock { state in
            state.containerType = state.containerType ?? ObjectIdentifier(Swift.type(of: container))
            return state.isAutoRegistered
        }
        if isDone { return false }
        guard container is AutoRegistering else {
            change { $0.isAutoRegistered = true }
            return false
        }
        // Recursive: the thread running autoRegister() gets through; every other thread waits here
        // until it has finished.
        let gate = autoRegistrationGate
        gate.lock()
        defer { gate.unlock() }
        let phase = state.withLock { state -> AutoRegistrationPhase in
            if state.isAutoRegistered { return .done }
            if state.isAutoRegistering { return .runningOnThisThread }
            state.isAutoRegistering = true
            return .toRun
        }
        switch phase {
        case .done:
            return false
        case .runningOnThisThread:
            return true
        case .toRun:
            // User code, outside `state`'s lock but inside the recursive gate, by design: the
            // thread registering may resolve and register (it gets through the gate again);
            // other threads wait until it has finished.
            (container as? AutoRegistering)?.autoRegister()
            change { state in
                state.isAutoRegistering = false
                state.isAutoRegistered = true
            }
            return false
        }
    }

    /// Serialises `autoRegister()`; recursive so the container can resolve inside it. Made on
    /// first use, by a container that has an `autoRegister()`: a lifetime scope (one per
    /// request) never needs one.
    private var autoRegistrationGate: Mutex {
        state.withLock { state in
            if let gate = state.seldom.autoRegistrationGate { return gate }
            let gate = Mutex(recursive: true)
            state.seldom.autoRegistrationGate = gate
            return gate
        }
    }

    private enum AutoRegistrationPhase {
        case done, runningOnThisThread, toRun
    }
}

extension ContainerManager {
    /// The contributions to the collection `key`, in order: this container's, and those of its
    /// parent that it does not replace. A validation reports look-alikes, and no contribution
    /// to a collection that is not declared `mayBeEmpty`.
    func contributions(to key: FactoryKey, mayBeEmpty: Bool) -> [AnyKeyPath] {
        let contributions = added(to: key, \.contributions).compactMapValues { $0 }
        if isValidating { noteLookAlikes(in: Array(contributions.keys), to: key) }
        if isValidating, contributions.isEmpty, !mayBeEmpty {
            _ = Validation.note(
                .emptyCollection,
                "Depot: nothing contributes to the collection \(key): it resolves as empty.",
                fix: "Contribute to it (contribute(_:to:)), or declare it "
                    + "contributions(mayBeEmpty: true) if it may be empty.")
        }
        // A contribution's value is the contributed factory's key path.
        return inOrder(Array(contributions.values)).map { $0 as! AnyKeyPath }
    }

    /// In a validation, reports contributions whose factories have one name and type and are
    /// two factories: two modules' declarations, which a reader takes for one.
    private func noteLookAlikes(in contributions: [FactoryKey], to key: FactoryKey) {
        let byDescription = Dictionary(grouping: contributions, by: \.description)
        for (description, keys) in byDescription where keys.count > 1 {
            _ = Validation.note(
                .duplicateContribution,
                "Depot: \(keys.count) contributions to \(key) look alike: each is a factory "
                    + "\(description) declared in another module, and the collection has each.",
                fix: "Give the declarations names of their own, or contribute only one of them.")
        }
    }

    /// What modules added to the factory `key` (`read` says which: contributions, decorators)
    /// in this container, over what they added in its parent's: an entry here, or a removal
    /// (`nil`), hides the parent's of the same name.
    func added(
        to key: FactoryKey, _ read: (Registration.Fields) -> [FactoryKey: Addition?]
    ) -> [FactoryKey: Addition?] {
        let (own, parent) = state.withLock { state in
            (state.registrations[key].map { read($0.fields) } ?? [:], state.parent)
        }
        guard let parent else { return own }
        return own.merging(parent.manager.added(to: key, read)) { own, _ in own }
    }
}

extension ContainerManager {
    /// The factories resolved while recording, as declared, and the others registered here,
    /// resolved with what is registered (their declarations are not known here), by key; only
    /// those that need no parameter.
    func registeredDeclarations() -> [Validation.Declaration] {
        state.withLock { state in
            var declarations = state.seldomUsed?.resolved ?? [:]
            for entry in state.registrations where declarations[entry.key] == nil {
                let body = entry.value.factory as? RegisteredBody
                declarations[entry.key] = body?.declaration(as: entry.key)
            }
            return Array(declarations.values)
        }.sorted { $0.key.description < $1.key.description }
    }
}
