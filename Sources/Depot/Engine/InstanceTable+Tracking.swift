// Which scopes' holders note a table's manager, so that the manager's deinit takes it back.
extension InstanceTable {
    /// Whether the manager of this table must be noted in the holders of `scope` (a
    /// per-container scope it just kept an instance of): only the first time.
    @usableFromInline
    mutating func needsTracking(in scope: Scope) -> Bool {
        guard !tracked.contains(where: { $0 === scope }) else { return false }
        tracked.append(scope)
        return true
    }
}

extension [Scope] {
    /// Takes `caches` out of the holders of every scope here.
    func untrack(_ caches: ContainerManager.Caches) {
        for scope in self {
            scope.untrack(caches)
        }
    }
}
