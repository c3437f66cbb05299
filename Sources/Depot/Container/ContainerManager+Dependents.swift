// What `resetsDependents` drops: the kept instances built from a factory that changed.
extension ContainerManager {
    /// Drops what this container keeps of every factory built from those of `keys`, and from
    /// those in turn, and their singletons, when ``resetsDependents`` is on.
    func dropDependents(of keys: [FactoryKey]) {
        let (dependents, containerType) = state.withLock { state in
            guard state.settings.resetsDependents, let recorded = state.seldomUsed?.dependents
            else { return (Set<FactoryKey>(), state.containerType) }
            var (found, pending) = (Set<FactoryKey>(), keys)
            while let key = pending.popLast() {
                for dependent in recorded[key] ?? [] where found.insert(dependent).inserted {
                    pending.append(dependent)
                }
            }
            return (found, state.containerType)
        }
        guard !dependents.isEmpty else { return }
        withCaches { table in dependents.forEach { table.removeInstances(of: $0, owner: nil) } }
        if let containerType {
            removeSingletons(of: Array(dependents), containerType: containerType)
        }
    }
}
