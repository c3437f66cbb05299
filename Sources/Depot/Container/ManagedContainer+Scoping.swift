/// A container that Depot can make more of, with `init()`: for lifetime scopes
/// (``newLifetimeScope()``) and child containers (``makeChild()``).
public protocol ScopingContainer: ManagedContainer {
    /// Makes a container with a new manager: no registrations and empty caches.
    init()
}

extension Container: ScopingContainer {}

extension ScopingContainer {
    /// A new container of this type with the same registrations, contexts and settings as this
    /// one now (a copy: later registrations on either do not reach the other), and empty caches
    /// for every per-container scope. Singletons stay shared, as for any container of the type.
    public func newLifetimeScope() -> Self {
        let manager = manager
        let inherited = manager.inheritance(autoRegistering: self)
        let (scope, scopeManager) = makeRelative(of: manager, for: "newLifetimeScope()")
        // Its container's realm, bound now: nothing else could be chosen on its first use.
        scopeManager.inherit(inherited, realm: manager.realm, isLifetimeScope: true)
        return scope
    }

    /// A new container of this type whose parent is this one (Swinject's container hierarchy).
    public func makeChild() -> Self {
        let (child, childManager) = makeRelative(of: manager, for: "makeChild()")
        childManager.becomeChild(of: self)
        return child
    }

    /// A new container of this type, and its manager, checked to be a new one.
    private func makeRelative(of manager: ContainerManager, for function: String)
        -> (Self, ContainerManager)
    {
        let relative = Self()
        let relativeManager = relative.manager
        if relativeManager === manager {
            fatalError(
                "Depot: \(Self.self).init() returned a container with the same manager; "
                    + "\(function) needs init() to make a new ContainerManager.")
        }
        return (relative, relativeManager)
    }
}

extension ManagedContainer {
    /// Makes this container use `other`'s per-container caches (`.cached`, `.shared`, custom
    /// scopes), so that both resolve the same instances: after it,
    /// `container.cat() === other.cat()` for a `.cached` `cat`.
    ///
    /// DITranquillity's `useScope(from:)`. Call it right after making the container: instances
    /// this container cached before are dropped, and debug builds stop with an assertion if
    /// there were any. Resets of either container's caches (`reset(options: .scope)`,
    /// `manager.reset(scope:)`) reach the shared caches; registrations stay each container's own.
    public func useScope(from other: any ManagedContainer) {
        manager.useCaches(of: other.manager)
    }

    /// Resolves the factories at `keyPaths` now, once each, in order: singletons and cached
    /// instances exist before anyone asks for them.
    ///
    /// ```swift
    /// extension Container: @retroactive AutoRegistering {
    ///     public func autoRegister() {
    ///         warmUp(\.database, \.analytics)   // before the first resolve returns
    ///     }
    /// }
    /// ```
    ///
    /// Called from `autoRegister()`, it runs before the container's first resolve returns; put
    /// it after the registrations there, so they apply.
    public func warmUp<each T>(_ keyPaths: repeat KeyPath<Self, Factory<each T>>) {
        for keyPath in repeat each keyPaths {
            _ = self[keyPath: keyPath]()
        }
    }
}

extension ContainerManager {
    /// Makes this (new) manager's container a child of `parent`, with its settings.
    func becomeChild(of parent: any ManagedContainer) {
        let inherited = parent.manager.inheritance(autoRegistering: parent)
        let realm = parent.manager.realm
        state.withLock { state in
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
        state.withLock { state in
            state.settingsBox = settings.map(SettingsBox.init) ?? inherited.settings
            state.registeredKeys = inherited.registeredKeys
            state.registrations = inherited.registrations
            state.parent = inherited.parent
            state.isAutoRegistered = true
            state.isLifetimeScope = isLifetimeScope
            state.instances.tracksHolders = !isLifetimeScope
            state.setFlags(Flags.tracksNoHolders, to: isLifetimeScope ? Flags.tracksNoHolders : 0)
            state.bind(realm)
        }
    }

    /// What a lifetime scope or child takes: its settings and registrations, not its caches.
    var inheritance: ContainerManager.State.Inheritance {
        state.withLock { $0.inheritance }
    }

    /// Uses `other`'s per-container caches (or those it uses) from now on.
    func useCaches(of other: ContainerManager) {
        let owner = other.cacheOwner
        let hadInstances = state.withLock { state -> Bool in
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
