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
