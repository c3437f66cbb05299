// Which scopes' holders note a table's manager, so that the manager's deinit takes it back.
extension InstanceTable {
    /// The per-container scopes whose holders note a table's manager; the first, nearly always
    /// the only one, is kept apart, so that noting it allocates nothing.
    struct TrackedScopes {
        private var first: Scope?
        private var rest: [Scope] = []

        /// Adds `scope`; returns whether it was not there yet.
        mutating func insert(_ scope: Scope) -> Bool {
            guard first !== scope, !rest.contains(where: { $0 === scope }) else { return false }
            if first == nil { first = scope } else { rest.append(scope) }
            return true
        }

        /// Takes `caches` out of the holders of every scope here.
        func untrack(_ caches: ContainerManager.Caches) {
            first?.untrack(caches)
            for scope in rest {
                scope.untrack(caches)
            }
        }
    }

    /// Whether the manager must be noted in the holders of `scope`: only the first time.
    @usableFromInline
    mutating func needsTracking(in scope: Scope) -> Bool {
        tracksHolders && tracked.insert(scope)
    }
}
