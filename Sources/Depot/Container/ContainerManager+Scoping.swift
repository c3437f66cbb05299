extension ContainerManager {
    /// Makes this (new) manager's container a child of `parent`, with its settings.
    func becomeChild(of parent: any ManagedContainer) {
        let inherited = parent.manager.inheritance(autoRegistering: parent)
        let realm = parent.manager.realm
        change { state in
            state.settingsBox = inherited.settings
            state.parent = parent
            state.isAutoRegistered = true
            state.bind(realm)
        }
    }

    /// What a lifetime scope takes, after `container`'s `autoRegister()` has run: under one
    /// lock when it has, as nearly always.
    func inheritance(autoRegistering container: any ManagedContainer)
        -> ContainerManager.State.Inheritance
    {
        let ready = state.withLock { state in
            state.isAutoRegistered && state.containerType != nil ? state.inheritance : nil
        }
        if let ready { return ready }
        autoRegisterIfNeeded(container)
        return inheritance
    }

    /// Takes `inherited` registrations, parent and settings (`settings` if given), and binds
    /// `realm`: a lifetime scope's, or a validation's copy's.
    func inherit(
        _ inherited: ContainerManager.State.Inheritance, settings: ContainerManager.Settings? = nil,
        realm: SingletonRealm, isLifetimeScope: Bool
    ) {
        change { state in
            state.inherit(
                inherited, settings: settings, realm: realm, isLifetimeScope: isLifetimeScope)
        }
    }

    /// What a lifetime scope or child takes: its settings and registrations, not its caches.
    var inheritance: ContainerManager.State.Inheritance {
        state.withLock { $0.inheritance }
    }

    /// Uses `other`'s per-container caches (or those it uses) from now on.
    func useCaches(of other: ContainerManager) {
        let owner = other.cacheOwner
        let hadInstances = change { state -> Bool in
            let hadInstances = !state.instances.isEmpty
            state.instances.removeAll()
            state.drop(state.cacheOwner)
            state.cacheOwner = owner === self ? nil : owner
            return hadInstances
        }
        assert(
            !hadInstances,
            "Depot: useScope(from:) on a container that had cached instances; they were dropped. "
                + "Call it right after making the container, before anything is resolved.")
    }
}

extension ContainerManager.State {
    /// What a lifetime scope or child container takes from its container.
    var inheritance: Inheritance {
        Inheritance(
            registrations: registrations, registeredKeys: registeredKeys, parent: parent,
            settings: settingsBox)
    }

    /// What a lifetime scope or child container takes from its container.
    struct Inheritance {
        let registrations: HashTable<FactoryKey, ContainerManager.Registration>
        let registeredKeys: UInt64
        let parent: (any ManagedContainer)?
        let settings: ContainerManager.SettingsBox
    }
}

extension ContainerManager {
    /// Takes the disposals out and forgets every instance, under one lock, then runs them.
    func shutdown() async -> [DisposalError] {
        let disposals = state.withLock { state in
            let taken = state.instances.takeDisposals(of: nil)
            state.instances.removeAll()
            return taken
        }
        return await Disposal.run(disposals)
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

extension ContainerManager {
    /// A copy of `original` for a validation: its registrations, contexts, parent and settings
    /// (with tracing off, logging to nowhere and no watcher), empty caches, and singletons in
    /// `realm`.
    convenience init(validating original: ContainerManager, realm: SingletonRealm) {
        self.init(realm: realm, isValidationCopy: true)
        let inherited = original.inheritance
        var settings = inherited.settings.value
        (settings.trace, settings.logger, settings.watcher) = (false, { _ in }, nil)
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
