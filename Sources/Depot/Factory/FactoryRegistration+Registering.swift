extension FactoryRegistration {
    /// Whether a factory has been registered for this key in its container.
    var isRegistered: Bool {
        manager.autoRegisterIfNeeded(container)
        return manager.state.withLock { $0.registrations[key]?.factory != nil }
    }

    /// A modifier that a registration can keep.
    @usableFromInline
    enum Modifier {
        case scope(Scope)
        case timeToLive(Double)
        case decorator(Decorator)
    }

    /// Applies `modifier` to this factory value and, on a value returned by `register`, keeps it
    /// with the registration too.
    @inlinable
    mutating func apply(_ modifier: Modifier) {
        if persistsModifiers {
            persist(modifier)
        }
        switch modifier {
        case .scope(let scope): self.scope = scope
        case .timeToLive(let seconds): timeToLive = seconds
        case .decorator(let decorator): self.decorator = decorator
        }
    }

    /// Sets a built-in scope as ``apply(_:)`` sets any: without retaining the scope, which is
    /// never deallocated.
    @inlinable
    mutating func apply(builtIn scope: Unmanaged<Scope>) {
        if persistsModifiers {
            persist(.scope(scope.takeUnretainedValue()))
        }
        scopeReference = scope
    }

    /// Keeps a modifier applied after `register` with the registration.
    @usableFromInline
    func persist(_ modifier: Modifier) {
        let key = key
        // The replaced registration is released after the lock (`changeRegistration`).
        manager.state.withLock { state in
            state.changeRegistration(for: key) { fields in
                switch modifier {
                case .scope(let scope): fields.scope = scope
                case .timeToLive(let seconds): fields.timeToLive = seconds
                case .decorator(let decorator): fields.decorator = decorator
                }
            }
        }
    }

    /// Replaces the factory's closure in its container.
    mutating func register(_ body: Body) {
        manager.autoRegisterIfNeeded(container)
        let key = key
        manager.state.withLock { state in
            state.changeRegistration(for: key) { $0.factory = body }
        }
        manager.withCaches { $0.removeInstances(of: key, owner: nil) }
        removeSingletons()
        persistsModifiers = true
    }

    /// Adds context overrides in the container.
    func register(_ body: Body, for contexts: [FactoryContextType]) {
        manager.autoRegisterIfNeeded(container)
        let key = key
        manager.state.withLock { state in
            state.changeRegistration(for: key) { fields in
                for context in contexts {
                    fields.contexts[context] = body
                }
            }
        }
    }

    /// Forgets what `options` says for this factory in its container (a child's reset never
    /// reaches its parent).
    func reset(_ options: FactoryResetOptions) {
        let key = key
        manager.state.withLock { state in
            switch options {
            case .none:
                return
            case .all:
                state.registrations[key] = nil
            case .registration:
                state.removeFactory(for: key)
            case .context:
                state.removeContexts(for: key)
            case .scope:
                break
            }
        }
        if options == .all || options == .scope {
            manager.withCaches { $0.removeInstances(of: key, owner: nil) }
            removeSingletons()
        }
    }

    private func removeSingletons() {
        let key = key
        let owner = ObjectIdentifier(Swift.type(of: container))
        manager.realm.instances.withLock { table in
            table.removeInstances(of: key, owner: owner)
        }
    }
}
