// Collections that modules contribute to: a factory of `[T]` whose elements are other factories
// of the same container, each with its own scope, added by whichever module provides one.

/// What a module adds to a factory it does not declare: its order, its name (the order's
/// tiebreak) and its value. A collection's contribution holds the `AnyKeyPath` of the
/// contributed factory, applied to the container that resolves the collection; a decorator
/// (Decorators.swift), its `(T) -> T` closure.
// Not Sendable: a key path may name a property isolated to an actor (a `@MainActor` factory),
// and a decorator's closure is not `@Sendable`. Kept in the registration, behind the manager's
// lock, like a registered closure, and used only by the factory's resolves: a collection's
// reads the property where a resolve of it would, and a decorator runs where the factory's
// closure runs (see `FactoryRegistration`): on its actor, for an isolated one.
typealias Addition = (order: Int, name: String, value: Any)

/// The values of `additions`, in ascending order, then by name.
func inOrder(_ additions: [Addition]) -> [Any] {
    additions.sorted { ($0.order, $0.name) < ($1.order, $1.name) }.map(\.value)
}

extension ManagedContainer {
    /// Declares a collection that modules contribute to, in a container extension:
    /// `var plugins: Factory<[any Plugin]> { contributions() }`.
    ///
    /// Its elements are the factories added with
    /// ``contribute(_:to:order:)-(_,KeyPath<Self,Factory<[E]>>,_)``, each resolved through its
    /// own factory (its scope, its registrations and contexts) in ascending `order`, then by the
    /// factory's name. A child container sees its parent's contributions and its own. The
    /// collection is a factory like any: register it to replace the whole of it, give it a scope
    /// to keep it (adding or removing a contribution drops what it keeps). See
    /// <doc:ModularApps>.
    ///
    /// - Parameters:
    ///   - mayBeEmpty: whether the collection may have no element: ``validate(_:)`` reports
    ///     one that is empty (``ValidationProblem/Kind/emptyCollection``) unless it is `true`.
    ///   - key: the collection's key; the property's name by default.
    ///   - file: the declaring file, `Module/File.swift`; leave the default.
    public func contributions<T>(
        mayBeEmpty: Bool = false, key: StaticString = #function, file: StaticString = #fileID
    ) -> Factory<[T]> {
        let collection = FactoryKey(name: key, type: [T].self, file: file)
        // Safe in tests: it only gathers its elements, which strict tests judge one by one.
        return Factory(
            self, key: key,
            { [self] in
                manager.contributions(to: collection, mayBeEmpty: mayBeEmpty).map {
                    (self[keyPath: $0] as! Factory<T>)()
                }
            }, file: file
        ).safeInTests
    }

    /// Declares a collection of async contributions: ``contributions(mayBeEmpty:key:file:)`` for
    /// an ``AsyncFactory``, whose elements are resolved one after another, in order.
    public func asyncContributions<T>(
        mayBeEmpty: Bool = false, key: StaticString = #function, file: StaticString = #fileID
    ) -> AsyncFactory<[T]> {
        let collection = FactoryKey(name: key, type: [T].self, file: file)
        return AsyncFactory(
            self, key: key,
            { [self] in
                var elements: [T] = []
                for keyPath in manager.contributions(to: collection, mayBeEmpty: mayBeEmpty) {
                    let factory = self[keyPath: keyPath]
                    elements.append(
                        try await (factory as? AsyncFactory<T>)?() ?? (factory as! Factory<T>)())
                }
                return elements
            }, file: file
        ).safeInTests
    }

    /// Adds the factory at `contribution` to the collection at `collection`, after those of
    /// lower `order` and, in the same order, by name: `container.contribute(\.auth, to:
    /// \.plugins)`. Contributing a factory again replaces its order.
    public func contribute<E>(
        _ contribution: KeyPath<Self, Factory<E>>,
        to collection: KeyPath<Self, Factory<[E]>>, order: Int = 0
    ) {
        change(collection, contribution, order: order)
    }

    /// Adds the synchronous factory at `contribution` to an async collection.
    public func contribute<E>(
        _ contribution: KeyPath<Self, Factory<E>>,
        to collection: KeyPath<Self, AsyncFactory<[E]>>, order: Int = 0
    ) {
        change(collection, contribution, order: order)
    }

    /// Adds the async factory at `contribution` to an async collection.
    public func contribute<E>(
        _ contribution: KeyPath<Self, AsyncFactory<E>>,
        to collection: KeyPath<Self, AsyncFactory<[E]>>, order: Int = 0
    ) {
        change(collection, contribution, order: order)
    }

    /// Removes the factory at `contribution` from the collection at `collection`, in this
    /// container: a child's removal hides its parent's contribution in the child, and never
    /// reaches the parent.
    public func removeContribution(
        _ contribution: KeyPath<Self, some FactoryModifying>,
        from collection: KeyPath<Self, some FactoryModifying>
    ) {
        change(collection, contribution, order: nil)
    }

    /// Sets the contribution of the factory at `keyPath` to the collection, under the
    /// collection's key.
    private func change(
        _ collection: KeyPath<Self, some FactoryModifying>,
        _ keyPath: KeyPath<Self, some FactoryModifying>, order: Int?
    ) {
        let key = self[keyPath: keyPath].registration.key
        let contribution = order.map { Addition($0, key.literal, keyPath) }
        // A removal stays as `nil`, so that it hides a parent's contribution too.
        changeAddition(to: self[keyPath: collection].registration.key) {
            $0.contributions[key] = .some(contribution)
        }
    }

    /// Changes what modules add to the factory `key` (contributions, decorators), as a
    /// registration of its own that `reset`, `push()` and `pop()` treat as any; then drops what
    /// the factory keeps, as a registration does.
    func changeAddition(
        to key: FactoryKey, _ change: (inout ContainerManager.Registration.Seldom) -> Void
    ) {
        manager.autoRegisterIfNeeded(self)
        let containerType = ObjectIdentifier(Swift.type(of: self))
        manager.changeDropping { state in
            state.changeRegistration(for: key) { change(&$0.seldom) }
            // Inside `autoRegister()`, which must not drop another container's singletons (see
            // `register`), only what this container keeps of the factory goes: it may have
            // been made meanwhile (warmed up, or by an element that contributes).
            if state.isAutoRegistering { return .init(key: key, cached: true) }
            return state.reset(key, .scope, containerType: containerType)
        }
    }
}
