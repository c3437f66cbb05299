extension ContainerManager {
    /// Logs `message`, unless a message about `subject` (the message itself by default) was
    /// logged before.
    func warnOnce(_ message: String, about subject: String? = nil) {
        let isFirst = state.withLock { $0.seldom.warnedOnce.insert(subject ?? message).inserted }
        if isFirst { logger(message) }
    }

    /// Logs `message` in a debug build, unless a message about the factory `key` was logged
    /// before.
    func warnOnce(about key: FactoryKey, _ message: @autoclosure () -> String) {
        guard FactoryContext.isDebugBuild else { return }
        let isFirst = state.withLock { $0.seldom.warned.insert(key).inserted }
        if isFirst { logger(message()) }
    }

    /// Whether resolutions of this container add what they observe to ``dependencyGraph()``:
    /// each factory resolved (with its scope), and which factory's closure resolved it.
    ///
    /// Off by default; when off, a resolve does no recording work. While on, the container also
    /// keeps each factory it resolves (and so itself, which the factories' closures capture), so
    /// that ``ManagedContainer/validate(_:)`` with no roots checks them, until
    /// ``removeRecordedDependencies()``.
    public var isRecordingDependencies: Bool {
        get { state.withLock { state in state.isRecordingDependencies } }
        set { state.withLock { $0.isRecordingDependencies = newValue } }
    }

    /// The dependencies recorded while ``isRecordingDependencies`` was on; render them with
    /// ``DependencyGraph/dot()`` or ``DependencyGraph/mermaid()``.
    public func dependencyGraph() -> DependencyGraph {
        state.withLock { $0.seldom.dependencies }
    }

    /// Forgets the recorded dependencies, and the factories kept for ``ManagedContainer/validate(_:)``.
    public func removeRecordedDependencies() {
        state.withLock { ($0.seldom.dependencies, $0.seldom.resolved) = (DependencyGraph(), [:]) }
    }

    /// What this container keeps cached now, by scope name: each factory as `key<Type>`
    /// (followed by its parameter for factories that keep one instance per parameter), sorted.
    public func cachedInstances() -> [String: [String]] {
        var inventory = cacheOwner.state.withLock { $0.instances.inventory(owner: nil) }
        if let containerType = state.withLock({ $0.containerType }) {
            let singletons = realm.instances.withLock { $0.inventory(owner: containerType) }
            inventory.merge(singletons) { $0 + $1 }
        }
        // Described after the locks: a parameter's description is user code.
        return inventory.mapValues { keys in keys.map(\.description).sorted() }
    }
}

extension InstanceTable {
    /// The keys of the live instances `owner` keeps, by scope name; the caller describes them
    /// after the lock (a parameter's description is user code).
    func inventory(owner: ObjectIdentifier?) -> [String: [InstanceKey]] {
        var inventory: [String: [InstanceKey]] = [:]
        for (key, slot) in slots where key.owner == owner {
            switch slot {
            case .ready(let cell), .stored(let cell):
                guard isCurrent(cell.scope), slot.isGone != true else { continue }
                inventory[cell.scope.description, default: []].append(key)
            case .creating, .creatingAsync:
                continue
            }
        }
        return inventory
    }
}
