// Which scopes' holders note a table's manager, so that the manager's deinit takes it back.
extension InstanceTable {
    /// Whether the manager of this table must be noted in the holders of `scope` (a
    /// per-container scope it just kept an instance of), in shard `shard`: only the first time.
    @usableFromInline
    mutating func needsTracking(in scope: Scope, shard: Int) -> Bool {
        tracked.insert(scope, shard: shard)
    }

    /// The scopes a table's manager is noted in, with their shards; the first apart, so that a
    /// lifetime scope's table (one such scope, usually) allocates no array for it.
    struct TrackedScopes {
        private var first: (scope: Unmanaged<Scope>, shard: Int)?
        private var rest: [(scope: Unmanaged<Scope>, shard: Int)] = []

        /// Adds `scope` unless it is there; returns whether it was added.
        mutating func insert(_ scope: Scope, shard: Int) -> Bool {
            let added = (scope: Unmanaged.passUnretained(scope), shard: shard)
            guard let first else {
                first = added
                return true
            }
            let address = added.scope.toOpaque()
            guard first.scope.toOpaque() != address,
                !rest.contains(where: { $0.scope.toOpaque() == address })
            else { return false }
            rest.append(added)
            return true
        }

        /// Takes `caches` out of the holders of every scope noted here.
        func untrack(_ caches: ContainerManager.Caches) {
            forEach { scope, shard in
                scope.untrack(caches, shard: shard)
            }
        }

        /// Calls `body` with each scope and its shard.
        func forEach(_ body: (Scope, Int) -> Void) {
            if let first {
                body(first.scope.takeUnretainedValue(), first.shard)
            }
            for (scope, shard) in rest {
                body(scope.takeUnretainedValue(), shard)
            }
        }
    }
}
