/// The per-container scopes an ``InstanceTable`` keeps instances of, each at the `generation` it
/// has caught up with. A long-lived container's manager is noted in their holders (its deinit
/// takes it back), so that a reset reaches it at once; a lifetime scope's is not (a request takes
/// no process-wide lock), and catches up with a reset on its next lookup in that scope instead.
/// The first scope, nearly always the only one, is kept apart, so that noting it allocates nothing.
struct TrackedScopes {
    typealias Entry = (scope: Scope, generation: Int)
    private var first: Entry?
    private var rest: [Entry] = []

    /// The generation noted for `scope`, if it is here.
    func generation(of scope: Scope) -> Int? {
        first?.scope === scope
            ? first?.generation : rest.first { $0.scope === scope }?.generation
    }

    /// Whether `scope` is at the generation noted for it; out of line, so that a hit's lookup
    /// stays small.
    @inline(never)
    func isCaughtUp(with scope: Scope) -> Bool { generation(of: scope) == scope.generation }

    /// Notes `scope` at its generation now; returns whether it was not there yet.
    mutating func insert(_ scope: Scope) -> Bool {
        guard generation(of: scope) == nil else { return false }
        let entry = (scope, scope.generation)
        if first == nil { first = entry } else { rest.append(entry) }
        return true
    }

    /// Notes `scope` at `generation`, which a lifetime scope's table has caught up with.
    mutating func note(_ scope: Scope, at generation: Int) {
        if first?.scope === scope { first?.generation = generation }
        if let index = rest.firstIndex(where: { $0.scope === scope }) {
            rest[index].generation = generation
        }
    }

    /// Takes `caches` out of the holders of every scope here.
    func untrack(_ caches: ContainerManager.Caches) {
        first?.scope.untrack(caches)
        for entry in rest { entry.scope.untrack(caches) }
    }
}
