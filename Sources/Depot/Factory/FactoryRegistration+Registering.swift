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

    /// Applies `modifier` to this factory value and, when `caller` (`#function` where it was
    /// written) is not the declaration, or on the value `register` returns, registers it too.
    @inlinable
    mutating func apply(_ modifier: Modifier, caller: StaticString) {
        if persistsModifiers || !isDeclaration(caller) {
            Self.persist(modifier, key: key, in: manager)
        }
        switch modifier {
        case .scope(let scope): declaredScope = scope.declared
        case .timeToLive(let seconds): changeOptions { $0.timeToLive = seconds }
        case .decorator(let decorator): changeOptions { $0.decorator = decorator }
        }
    }

    /// Sets a built-in scope as ``apply(_:caller:)`` sets any.
    @inlinable
    mutating func apply(builtIn kind: Scope.BuiltIn) {
        if persistsModifiers { Self.persist(.scope(Scope.builtIn(kind)), key: key, in: manager) }
        // Only a custom scope needs releasing when replaced. Said first, it lets the compiler
        // see that a declaration's `self { ... }.cached` replaces nothing: a store.
        if case .other = declaredScope { declaredScope = nil }
        declaredScope = .builtIn(kind)
    }

    /// Whether `caller`, the function that applies a modifier, is the factory's declaration:
    /// the property or function whose name is the factory's key.
    @inlinable
    func isDeclaration(_ caller: StaticString) -> Bool {
        FactoryKey.address(of: caller) == key.nameAddress || caller.description == key.literal
    }

    /// Keeps a modifier applied from outside the declaration with the registration of `key` in
    /// `manager`: given those, not the factory value, which a modifier then never copies.
    @usableFromInline
    static func persist(_ modifier: Modifier, key: FactoryKey, in manager: ContainerManager) {
        // Kept already (a modifier applied again on every resolve): nothing to replace.
        let isKept = manager.state.withLock { state in
            let registration = state.registrations[key]
            switch modifier {
            case .scope(let scope): return registration?.scope === scope.identity
            case .timeToLive(let seconds): return registration?.timeToLive == seconds
            case .decorator: return false
            }
        }
        guard !isKept else { return }
        manager.change { state in
            state.changeRegistration(for: key) { fields in
                switch modifier {
                case .scope(let scope): fields.scope = scope.identity
                case .timeToLive(let seconds): fields.seldom.timeToLive = seconds
                case .decorator(let decorator): fields.seldom.decorator = decorator
                }
            }
        }
    }

    /// Stops the process: `seconds`, negative or NaN, is no time to live.
    @usableFromInline
    func rejectTimeToLive(_ seconds: Double) -> Never {
        fatalError(
            "Depot: \(stepWithoutParameter).timeToLive(\(seconds)): a time to live is a number "
                + "of seconds, zero or more. Use .infinity to keep the instance until a reset, or "
                + "remove timeToLive to keep it as its scope says.")
    }

    /// Replaces the factory's closure in its container, dropping its cached instances and
    /// singleton, except inside `autoRegister()`, which must not drop another container's.
    mutating func register(_ body: Body) {
        manager.autoRegisterIfNeeded(container)
        let (key, containerType) = (key, ObjectIdentifier(Swift.type(of: container)))
        manager.changeDropping { state in
            state.changeRegistration(for: key) { $0.factory = body }
            // What the replaced closure made goes, as a reset of the factory's scope drops it;
            // not inside autoRegister(), where only the thread registering gets past the gate,
            // which must not drop another container's singletons.
            if state.isAutoRegistering { return .init() }
            return state.reset(key, .scope, containerType: containerType)
        }
        changeOptions { $0.persistsModifiers = true }
    }

    /// Adds context overrides in the container, unless a declaration's `once()` registered its
    /// contexts already and this value is that declaration before its `once()` (see
    /// ``markContextsRegisteredOnce()``).
    mutating func register(_ body: Body, for contexts: [FactoryContextType]) {
        manager.autoRegisterIfNeeded(container)
        let (key, isOnce) = (key, isOnce)
        manager.change { state in
            if state.registrations[key]?.contextsRegisteredOnce == true, !isOnce { return }
            state.changeRegistration(for: key) { fields in
                for context in contexts {
                    fields.seldom.contexts[context] = body
                }
            }
        }
        if options?.values.registersContexts != true {
            changeOptions { $0.registersContexts = true }
        }
    }

    /// Notes, for the `once()` of a declaration that registered contexts, that they are
    /// registered once: the declaration, evaluated again on every resolve, registers them no
    /// more, until a reset of everything (`reset()`, `reset(options: .all)`).
    @usableFromInline
    func markContextsRegisteredOnce() {
        let key = key
        manager.change { state in
            guard state.registrations[key]?.contextsRegisteredOnce != true else { return }
            state.changeRegistration(for: key) { $0.seldom.contextsRegisteredOnce = true }
        }
    }

    /// Forgets what `options` says for this factory in its container (a child's reset never
    /// reaches its parent), and what was made from it.
    func reset(_ options: FactoryResetOptions) {
        let (key, containerType) = (key, ObjectIdentifier(Swift.type(of: container)))
        manager.changeDropping { $0.reset(key, options, containerType: containerType) }
    }
}
