extension Scope {
    /// No caching: every resolve creates a new instance. The default scope.
    ///
    /// Created on every resolve and released when its callers let go; there is nothing to reset.
    /// `manager.defaultScope` replaces it as the scope of factories that name none.
    public static let unique = Unique()

    /// One instance per container, kept until reset.
    ///
    /// Created on the first resolve in a container; released by `manager.reset(scope: .cached)`,
    /// `manager.reset(options: .scope)`, the factory's `reset()`, `Scope.cached.reset()`, or a new
    /// registration for the factory.
    public static let cached = Cached(name: "cached")

    /// One instance per container while anyone else holds it strongly.
    ///
    /// Held weakly: once the last owner lets go, the next resolve creates a new instance. A value
    /// type cannot be held weakly, so for one the factory acts as ``unique``.
    public static let shared = Shared()

    /// One instance per process, across all containers of a type, until reset.
    ///
    /// Released by `Scope.singleton.reset()` or the factory's `reset()`; container resets leave
    /// singletons alone. Under DepotTesting's `.container` trait each test has its own.
    ///
    /// A task-local, as in FactoryKit: code run inside
    /// `Scope.$singleton.withValue(Scope.singleton.clone()) { ... }` (or
    /// ``withIsolatedSingletons(_:isolation:)``) keeps the singletons of the containers it
    /// creates apart from everyone else's.
    @TaskLocal public static var singleton: Singleton = .process

    /// One instance per process while anyone holds it.
    ///
    /// Held weakly, across all containers of a type: two instances never exist at once, and
    /// once the last owner lets go the next resolve creates a new one. Also released by
    /// `Scope.weakSingleton.reset()` or the factory's `reset()`. A value type cannot be held
    /// weakly, so for one the factory acts as ``unique``.
    public static let weakSingleton = WeakSingleton()

    /// One instance per resolution graph: the outermost resolve on a thread or task and every
    /// resolve nested inside it.
    ///
    /// Created on the first resolve of the factory in a graph, and released when the outermost
    /// resolve returns (a ``Lazy`` or ``Provider`` that joined the graph holds it weakly after
    /// that). Concurrent resolutions are different graphs; there is nothing to reset.
    public static let graph = Graph()

    /// The built-in scopes, as the modifiers (`.cached`, `.singleton`, ...) name them.
    @usableFromInline
    enum BuiltIn: Int32 {
        case unique, cached, shared, singleton, weakSingleton, graph
    }

    /// The scope a factory declares: a built-in one by its kind, or any other.
    @usableFromInline
    enum Declared {
        case builtIn(BuiltIn)
        case other(Scope)

        @usableFromInline
        var scope: Scope {
            switch self {
            case .builtIn(let kind): Scope.builtIn(kind)
            case .other(let scope): scope
            }
        }

        /// What `prepare` would return for a miss of a factory declared with `declared`, with
        /// no `Options`, in `manager`, a plain container; `nil` for the weak and custom scopes.
        @usableFromInline
        static func plainPlan(
            _ declared: Declared?, checksCaptive: Bool, in manager: ContainerManager
        ) -> ContainerManager.Plan? {
            switch declared {
            case nil, .builtIn(.unique): manager.uniqueScope.plainPlan(checksCaptive: checksCaptive)
            case .builtIn(.graph): manager.graphScope.plainPlan(checksCaptive: checksCaptive)
            case .builtIn(.cached): manager.cachedScope.plainPlan(checksCaptive: checksCaptive)
            case .builtIn(.singleton):
                manager.singletonScope.plainPlan(checksCaptive: checksCaptive)
            default: nil
            }
        }
    }

    /// How a factory declared with `scope(self)` declares it: as `.cached`, `.singleton`,
    /// `.unique` or `.graph` do for those scopes (FactoryKit's users write `.scope(.cached)`), so
    /// that its hit, like theirs, reads its table without the container's lock or `prepare`.
    @usableFromInline
    var declared: Declared {
        let scope = identity
        if scope === Scope.cached { return .builtIn(.cached) }
        if scope === Singleton.process { return .builtIn(.singleton) }
        if scope === Scope.unique { return .builtIn(.unique) }
        if scope === Scope.graph { return .builtIn(.graph) }
        return .other(scope)
    }

    /// The built-in scope `kind`, for the modifiers: the process's singleton scope for
    /// `.singleton`, whatever clone is current (a clone stands for it).
    @usableFromInline
    static func builtIn(_ kind: BuiltIn) -> Scope {
        switch kind {
        case .unique: unique
        case .cached: cached
        case .shared: shared
        case .singleton: Singleton.process
        case .weakSingleton: weakSingleton
        case .graph: graph
        }
    }

    /// The scope of factories that keep nothing: the type of ``Scope/unique``.
    public final class Unique: Scope, @unchecked Sendable {
        /// Makes a scope that keeps nothing; it behaves exactly as ``Scope/unique``.
        public init() { super.init(placement: .none, holdsWeakly: false, name: "unique") }
    }

    /// A per-container cache; each instance of `Cached` is a scope of its own, reset on its own.
    public final class Cached: Scope, @unchecked Sendable {
        /// Makes a new, independent per-container cache.
        public init() {
            super.init(placement: .container, holdsWeakly: false, name: "custom cached")
        }
        init(name: String) { super.init(placement: .container, holdsWeakly: false, name: name) }
    }

    /// A per-container weak cache: the type of ``Scope/shared``.
    public final class Shared: Scope, @unchecked Sendable {
        /// Makes a per-container weak cache of its own, reset independently of ``Scope/shared``.
        public init() { super.init(placement: .container, holdsWeakly: true, name: "shared") }
    }

    /// The process-wide cache: the type of ``Scope/singleton``.
    public final class Singleton: Scope, @unchecked Sendable {
        /// The process's singleton scope: what `.singleton` and, outside a clone's
        /// `withValue`, ``Scope/singleton`` name.
        static let process = Singleton(isolatedRealm: nil, standsFor: nil)

        /// For a clone: where the singletons of the containers made while it is
        /// ``Scope/singleton`` live, apart from everyone else's.
        let isolatedRealm: SingletonRealm?

        /// Makes a process-wide cache of its own, reset independently of ``Scope/singleton``.
        public convenience init() {
            self.init(isolatedRealm: nil, standsFor: nil)
        }

        private init(isolatedRealm: SingletonRealm?, standsFor: Scope?) {
            self.isolatedRealm = isolatedRealm
            super.init(
                placement: .process, holdsWeakly: false, name: "singleton", standsFor: standsFor)
        }

        /// A singleton scope with no singletons yet, for
        /// `Scope.$singleton.withValue(Scope.singleton.clone()) { ... }`: containers created
        /// inside keep their singletons in it, and `Scope.singleton.reset()` there resets only
        /// those. Factories declared `.singleton` use it as they use ``Scope/singleton``.
        public func clone() -> Singleton {
            return Singleton(isolatedRealm: SingletonRealm(), standsFor: identity)
        }

        /// Forgets the singletons: a clone's own, or those in the singleton storage current now.
        public override func reset() {
            guard let isolatedRealm else { return super.reset() }
            isolatedRealm.removeInstances(of: identity)
        }
    }

    /// The process-wide weak cache: the type of ``Scope/weakSingleton``.
    public final class WeakSingleton: Scope, @unchecked Sendable {
        /// Makes a process-wide weak cache of its own, reset independently of
        /// ``Scope/weakSingleton``.
        public init() {
            super.init(placement: .process, holdsWeakly: true, name: "weak singleton")
        }
    }

    /// The per-resolution cache: the type of ``Scope/graph``.
    public final class Graph: Scope, @unchecked Sendable {
        /// Makes a per-resolution cache; it behaves exactly as ``Scope/graph``.
        public init() { super.init(placement: .graph, holdsWeakly: false, name: "graph") }

        /// How deep the calling thread's (or task's) resolution is now: 0 outside any resolve,
        /// 1 inside the outermost factory, and one more for each nested resolve.
        public var depth: Int { ResolutionFrame.current.depth }
    }
}
