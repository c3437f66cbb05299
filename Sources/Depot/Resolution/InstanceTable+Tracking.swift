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
    struct TrackedScopes: Sequence {
        private var first: (scope: Unmanaged<Scope>, shard: Int)?
        private var rest: [(scope: Unmanaged<Scope>, shard: Int)] = []

        /// Adds `scope` unless it is there; returns whether it was added.
        mutating func insert(_ scope: Scope, shard: Int) -> Bool {
            let id = ObjectIdentifier(scope)
            if let first {
                guard ObjectIdentifier(first.scope.takeUnretainedValue()) != id,
                    !rest.contains(where: { ObjectIdentifier($0.scope.takeUnretainedValue()) == id }
                    )
                else { return false }
                rest.append((Unmanaged.passUnretained(scope), shard))
            } else {
                first = (Unmanaged.passUnretained(scope), shard)
            }
            return true
        }

        func makeIterator() -> some IteratorProtocol<(scope: Unmanaged<Scope>, shard: Int)> {
            ((first.map { [$0] } ?? []) + rest).makeIterator()
        }
    }
}
