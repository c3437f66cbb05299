internal import CDepotAtomics

/// Decides how long a factory's instances live, and where they are kept.
///
/// Pick a built-in scope with a modifier (`.cached`, `.singleton`...), or make a scope of your
/// own that is reset independently, with ``Cached`` or, for a storage policy of your own,
/// ``Custom``:
///
/// ```swift
/// extension Scope {
///     static let session = Scope.Custom(name: "session")
/// }
/// extension Container {
///     var cart: Factory<Cart> { self { Cart() }.scope(.session) }
/// }
/// Scope.session.reset()   // at logout, in every container
/// ```
///
/// See <doc:ChoosingAScope> for when each scope creates and releases its instances.
///
/// A scope is a declaration: make each one once (`static let`). A scope object is never
/// deallocated, so factory values refer to their scope without counting references.
// @unchecked Sendable: the only mutable state, `holders`, is behind a lock.
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
    /// Whether the thread's hit cache may remember a resolve of this scope: a built-in scope that
    /// keeps instances strongly (the kept cell), or `unique` or `graph` (that the factory's
    /// closure, and for `graph` the resolution graph, is all there is to look at).
    @usableFromInline let isRememberedOnHit: Bool
    /// The name used in traces and diagnostics.
    let name: String
    /// For a ``Custom`` scope: makes the user's storage, one per container or process (whether
    /// it gets instances or weak boxes is `holdsWeakly`). `nil` for the built-in scopes, whose
    /// instances live in Depot's own cells.
    let custom: CustomStorage?
    /// The caches of the managers that may keep instances of this scope, so that `reset()`
    /// reaches them: in shards, each thread noting into its own (`ResolutionFrame.shard`), so
    /// that containers made and used on many threads at once (one per request) do not all take
    /// one lock. Held strongly (a weak reference would give each manager's caches a side table
    /// to allocate and free): a manager's deinit takes its caches back.
    private let holders = (0..<Scope.holderShards).map { _ in
        Locked(alone: [HolderKey: ContainerManager.Caches]())
    }
    private static let holderShards = 8
    /// Whether this is a ``Custom`` scope, whose instances live in the user's storage.
    @usableFromInline var isCustom: Bool { custom != nil }
    /// The scope this one stands for, if another: a clone of ``Scope/singleton`` stands for the
    /// process's singleton scope, whose identity keys singletons. Factories take that one.
    @usableFromInline let standsFor: Unmanaged<Scope>?

    init(
        placement: Placement, holdsWeakly: Bool, name: String, custom: CustomStorage? = nil,
        standsFor: Scope? = nil
    ) {
        self.placement = placement
        self.holdsWeakly = holdsWeakly
        self.name = name
        self.custom = custom
        self.standsFor = standsFor.map { Unmanaged.passUnretained($0) }
        isRememberedOnHit = custom == nil && !holdsWeakly
        // A scope lives for the rest of the process: factory values refer to their scope
        // without counting references, and scopes are declarations (`static let`), made once.
        // A stand-in is never referred to that way, and goes when its user lets go.
        if standsFor == nil {
            let kept = Unmanaged.passRetained(self)
            // Immortal too, where the runtime allows (see `depot_make_immortal`): every thread
            // resolves through the same few scopes, and a retain of one would be a write to a
            // cache line all cores share. Nothing refers to a scope weakly.
            _ = depot_make_immortal(kept.toOpaque())
        }
    }

    /// The scope a factory keeps: this one, or the one it stands for.
    @inlinable
    var identity: Scope {
        standsFor?.takeUnretainedValue() ?? self
    }

    /// How a ``Custom`` scope keeps its instances.
    struct CustomStorage: Sendable {
        let makeStorage: @Sendable () -> any ScopeStorage
    }

    /// Forgets every instance this scope keeps, in every container (for process-wide scopes,
    /// in the current singleton storage: the process's, or the test's under DepotTesting).
    ///
    /// The next resolve of a factory in this scope creates a new instance.
    public func reset() {
        switch placement {
        case .none, .graph:
            return
        case .process:
            SingletonRealm.current.removeInstances(of: self)
        case .container:
            for cache in holdingCaches() {
                cache.removeInstances(of: self)
            }
        }
    }

    /// The caches of the managers that keep instances of this scope.
    func holdingCaches() -> [ContainerManager.Caches] {
        holders.flatMap { shard in shard.withLock { Array($0.values) } }
    }

    /// Notes that `manager` keeps instances of this scope, in the holders' shard `shard` (the
    /// calling thread's): until the manager's deinit takes it back (``untrack(_:shard:)``).
    func track(_ manager: ContainerManager, shard: Int) {
        let caches = manager.caches
        holders[shard].withLock { $0[HolderKey(caches)] = caches }
    }

    /// Forgets `caches`, which ``track(_:shard:)`` noted in `shard`: from its manager's deinit.
    func untrack(_ caches: ContainerManager.Caches, shard: Int) {
        // Released after the lock: the last reference to the caches may be this one.
        let removed = holders[shard].withLock { $0.removeValue(forKey: HolderKey(caches)) }
        _ = removed
    }

    /// A holder's address as a key, hashed by a multiply-and-fold mix rather than SipHash: a
    /// request's scope is noted and forgotten once each.
    struct HolderKey: Hashable {
        let address: ObjectIdentifier

        init(_ caches: ContainerManager.Caches) {
            address = ObjectIdentifier(caches)
        }

        func _rawHashValue(seed: Int) -> Int {
            Int(bitPattern: HashMix.mix(UInt(bitPattern: seed), address))
        }
    }

    /// The shard of the holders a thread notes managers in (see `holders`).
    @usableFromInline
    static var currentShard: Int {
        ResolutionFrame.current.shard % holderShards
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
