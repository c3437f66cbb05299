extension Scope {
    /// No caching: every resolve creates a new instance. The default scope.
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
    public static let singleton = Singleton()

    /// One instance per process while anyone holds it.
    ///
    /// Held weakly, across all containers of a type: two instances never exist at once, and
    /// once the last owner lets go the next resolve creates a new one. Also released by
    /// `Scope.weakSingleton.reset()` or the factory's `reset()`. A value type cannot be held
    /// weakly, so for one the factory acts as ``unique``.
    public static let weakSingleton = WeakSingleton()

    /// One instance per resolution graph: the outermost resolve on a thread or task and every
    /// resolve nested inside it. Released when the outermost resolve returns.
    public static let graph = Graph()

    /// The scope of factories that keep nothing.
    public final class Unique: Scope, @unchecked Sendable {
        public init() { super.init(placement: .none, holdsWeakly: false, name: "unique") }
    }

    /// A per-container cache; each instance of `Cached` is a scope of its own, reset on its own.
    ///
    /// ```swift
    /// extension Scope {
    ///     static let session = Scope.Cached()
    /// }
    /// ```
    public final class Cached: Scope, @unchecked Sendable {
        /// Makes a new, independent per-container cache.
        public init() {
            super.init(placement: .container, holdsWeakly: false, name: "custom cached")
        }
        init(name: String) { super.init(placement: .container, holdsWeakly: false, name: name) }
    }

    /// A per-container weak cache.
    public final class Shared: Scope, @unchecked Sendable {
        public init() { super.init(placement: .container, holdsWeakly: true, name: "shared") }
    }

    /// The process-wide cache.
    public final class Singleton: Scope, @unchecked Sendable {
        public init() { super.init(placement: .process, holdsWeakly: false, name: "singleton") }
    }

    /// The process-wide weak cache.
    public final class WeakSingleton: Scope, @unchecked Sendable {
        public init() {
            super.init(placement: .process, holdsWeakly: true, name: "weak singleton")
        }
    }

    /// The per-resolution cache.
    public final class Graph: Scope, @unchecked Sendable {
        public init() { super.init(placement: .graph, holdsWeakly: false, name: "graph") }
    }
}
