import Atomics

/// Decides how long a factory's instances live, and where they are kept. A scope is a
/// declaration: make each one once (`static let`).
// @unchecked Sendable: the mutable state is `holders`, behind a lock, and `resets`, an atomic.
public class Scope: @unchecked Sendable {
    /// Where a scope keeps its instances.
    @usableFromInline
    enum Placement {
        /// Nowhere: a new instance every time.
        case none
        /// In the current resolution graph.
        case graph
        /// In each container's manager.
        case container
        /// Once for the process (one per test under DepotTesting's trait).
        case process
    }

    @usableFromInline let placement: Placement
    /// Whether instances are held weakly, so they go once nobody else holds them.
    @usableFromInline let holdsWeakly: Bool
    /// The name used in traces and diagnostics.
    let name: String
    /// For a ``Custom`` scope: makes the user's storage, one per container or process.
    let custom: CustomStorage?
    /// The caches of the managers that may keep instances of this scope, for `reset()`; a
    /// manager's deinit takes its caches back.
    private let holders = Locked(HashTable<ObjectIdentifier, ContainerManager.Caches>())
    /// How many times `reset()` ran: a lifetime scope, which is not in `holders`, compares it
    /// with the number it last saw, on its next lookup in this scope.
    private let resets = ManagedAtomic<Int>(0)
    /// Whether this is a ``Custom`` scope, whose instances live in the user's storage.
    @usableFromInline var isCustom: Bool { custom != nil }
    /// The scope this one stands for, if another: a clone of ``Scope/singleton`` stands for the
    /// process's singleton scope, which factories take.
    @usableFromInline let standsFor: Scope?
    /// The plan of a resolve in this scope with nothing registered, observed or shared, made
    /// once; none for a scope that stands for another, which is never a plan's scope (and a
    /// plan would keep a clone's singletons alive after its `withIsolatedSingletons` ends).
    private var plainPlan: ContainerManager.Plan!
    /// The plain plan, checked for captive owners (debug builds' lifetime scopes).
    private var checkedPlainPlan: ContainerManager.Plan!

    /// The plain plan, checked for captive owners if `checksCaptive`.
    final func plainPlan(checksCaptive: Bool) -> ContainerManager.Plan {
        checksCaptive ? checkedPlainPlan : plainPlan
    }

    init(
        placement: Placement, holdsWeakly: Bool, name: String, custom: CustomStorage? = nil,
        standsFor: Scope? = nil
    ) {
        self.placement = placement
        self.holdsWeakly = holdsWeakly
        self.name = name
        self.custom = custom
        self.standsFor = standsFor
        guard standsFor == nil else { return }
        plainPlan = ContainerManager.Plan(scope: self)
        checkedPlainPlan = ContainerManager.Plan(scope: self, checksCaptive: true)
    }

    /// The scope a factory keeps: this one, or the one it stands for.
    @inlinable
    var identity: Scope {
        standsFor ?? self
    }

    /// How a ``Custom`` scope keeps its instances.
    struct CustomStorage: Sendable {
        let makeStorage: @Sendable () -> any ScopeStorage
    }

    /// Forgets every instance this scope keeps, in every container (for process-wide scopes,
    /// in the current singleton storage: the process's, or the test's under DepotTesting).
    ///
    /// The next resolve of a factory in this scope creates a new instance. Containers let go of
    /// the instances now, and their `onDispose` closures run; a lifetime scope (a request's),
    /// which no process-wide list holds so that making one takes no process-wide lock, lets go
    /// of them when it next resolves a factory in this scope, or when it ends.
    public func reset() {
        switch placement {
        case .none, .graph:
            return
        case .process:
            SingletonRealm.current.removeInstances(of: self)
        case .container:
            resets.wrappingIncrement(ordering: .releasing)
            for cache in holdingCaches() {
                cache.removeInstances(of: self)
            }
        }
    }

    /// How many times `reset()` ran: the number a cell made now is at.
    var generation: Int { resets.load(ordering: .acquiring) }

    /// The caches of the managers that keep instances of this scope.
    func holdingCaches() -> [ContainerManager.Caches] {
        holders.withLock { $0.map(\.value) }
    }

    /// Notes that `manager` keeps instances of this scope, until the manager's deinit takes it
    /// back (``untrack(_:)``).
    func track(_ manager: ContainerManager) {
        let caches = manager.caches
        holders.withLock { $0[caches.id] = caches }
    }

    /// Forgets `caches`, which ``track(_:)`` noted: from its manager's deinit.
    func untrack(_ caches: ContainerManager.Caches) {
        // Released after the lock: the last reference to the caches may be this one.
        let removed = holders.withLock { $0.removeValue(forKey: caches.id) }
        _ = removed
    }
}

extension Scope: CustomStringConvertible {
    public var description: String { name }
}

extension Scope {
    /// Whether the scope keeps its instances strongly beyond one resolution: `.cached`,
    /// `.singleton` and custom scopes. Whatever their factories resolve lives as long.
    var keepsStrongly: Bool {
        (placement == .container || placement == .process) && !holdsWeakly
    }

    /// Whether an instance of the scope is meant to live shorter than one kept by a
    /// ``keepsStrongly`` scope: `.unique`, `.graph`, and the weak scopes.
    var livesShorterThanAnOwner: Bool {
        placement == .none || placement == .graph || holdsWeakly
    }
}

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

// The scopes an instance table keeps instances of, and catching up with their resets.
extension InstanceTable {
    /// Whether the manager must be noted in the holders of `scope`: only the first time, and
    /// never a lifetime scope's.
    @usableFromInline
    mutating func needsTracking(in scope: Scope) -> Bool {
        tracked.insert(scope) && tracksHolders
    }

    /// Whether what this table keeps for `scope` counts: a reset removes it from the tables in
    /// the scope's holders at once, and from a lifetime scope's on its next lookup.
    @inline(__always)
    func isCurrent(_ scope: Scope) -> Bool {
        tracksHolders || tracked.isCaughtUp(with: scope)
    }

    /// In a lifetime scope's table, forgets the instances of `scope` that a reset since the
    /// last lookup forgot everywhere else.
    mutating func catchUp(with scope: Scope) {
        guard !tracksHolders, let noted = tracked.generation(of: scope), noted != scope.generation
        else { return }
        removeInstances(of: scope)
        tracked.note(scope, at: scope.generation)
    }
}
