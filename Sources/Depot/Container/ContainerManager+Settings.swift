import Atomics

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension ContainerManager {
    /// The scope of every factory of this container that names none. `nil` means ``Scope/unique``.
    public var defaultScope: Scope? {
        get { state.withLock { $0.settings.defaultScope } }
        set { change { $0.settings.defaultScope = newValue?.identity } }
    }

    /// The scope `factory` resolves in here: registered, declared or this container's default.
    func scope<P, T>(of factory: FactoryRegistration<P, T>) -> Scope {
        state.withLock { state in
            winningOption(
                declared: factory.declaredScope?.scope,
                registered: state.registrations[factory.key]?.scope, isOnce: factory.isOnce)
                ?? state.settings.defaultScope ?? Scope.unique
        }
    }

    /// Whether each resolution of this container is logged through ``logger``.
    public var trace: Bool {
        get { state.withLock { $0.settings.trace } }
        set { change { $0.settings.trace = newValue } }
    }

    /// Receives trace lines and diagnostics. Prints by default.
    public var logger: (String) -> Void {
        get { state.withLock { $0.settings.logger } }
        set { change { $0.settings.logger = newValue } }
    }

    /// Whether resolving a `promised()` factory that nobody registered stops the process (with the
    /// container, key and type named) rather than returning `nil`. On in debug builds.
    public var promiseTriggersError: Bool {
        get { state.withLock { $0.settings.promiseTriggersError } }
        set { change { $0.settings.promiseTriggersError = newValue } }
    }

    /// Called with every instance this container resolves, after the factory's own decorator.
    public var decorator: ((Any) -> Void)? {
        get { state.withLock { $0.settings.decorator } }
        set { change { $0.settings.decorator = newValue } }
    }

    /// Whether debug builds also report a `.unique`, `.graph` or weakly held (`.shared`,
    /// `.weakSingleton`) dependency that a `.cached`, `.singleton` or custom-scoped instance of
    /// this container resolves and keeps: off by default, since keeping a `.unique` service is
    /// the commonest pattern. An instance of a lifetime scope kept by an owner that outlives
    /// the scope is reported whatever this says (see <doc:Diagnostics>). Lifetime scopes take
    /// it from their container.
    public var reportsShortLivedCaptives: Bool {
        get { state.withLock { $0.settings.reportsShortLivedCaptives } }
        set { change { $0.settings.reportsShortLivedCaptives = newValue } }
    }

    /// Whether a factory declared on an actor and resolved off it stops the process, in debug
    /// builds, instead of being logged once per factory and place: off by default, as
    /// FactoryKit goes on. Lifetime scopes and children take it from their container. See
    /// <doc:Diagnostics#Isolation>.
    public var stopsOnIsolationBreach: Bool {
        get { state.withLock { $0.settings.stopsOnIsolationBreach } }
        set { change { $0.settings.stopsOnIsolationBreach = newValue } }
    }

    /// Whether registering, resetting or popping a factory also drops what this container keeps
    /// of every factory built from it, transitively, so the next resolve rebuilds them from what
    /// applies now: off by default. Lifetime scopes and children take it from their container.
    ///
    /// ```swift
    /// Container.shared.manager.resetsDependents = true
    /// Container.shared.session.reset()   // at logout: the cached apiClient made from it goes too
    /// ```
    ///
    /// A factory counts as built from another once its closure has resolved it in this
    /// container while this is on. What goes is disposed as a reset disposes it. See
    /// <doc:ModularApps#Dependents-that-follow-an-override>.
    public var resetsDependents: Bool {
        get { state.withLock { $0.settings.resetsDependents } }
        set { change { $0.settings.resetsDependents = newValue } }
    }

    /// Called with every resolve of this container, and of the lifetime scopes and children
    /// made from it since, hits included, after the value is made: DepotTesting's strict tests
    /// set it. While set, resolves take the container's slower, observed path.
    @_spi(Testing)
    public var watcher: (@Sendable (WatchedResolve) -> Void)? {
        get { state.withLock { $0.settings.watcher } }
        set {
            if newValue != nil, !Self.hasWatchers {
                Self.watchers.store(true, ordering: .relaxed)
            }
            change { $0.settings.watcher = newValue }
        }
    }

    /// Whether any container of the process has had a watcher: until then no resolve is
    /// watched, and a property wrapper's resolve need not be marked (`ResolutionFrame.inject`).
    /// It only ever turns true, before the watcher is published.
    static var hasWatchers: Bool { watchers.load(ordering: .relaxed) }
    private static let watchers = ManagedAtomic(false)

    /// The monotonic clock that `timeToLive(_:)` measures ages with. Tests can set their own.
    public var clock: Clock {
        get { state.withLock { $0.settings.clock } }
        set { change { $0.settings.clock = newValue } }
    }

    /// How deep one resolution may nest before Depot stops it, taking it for endless recursion:
    /// 256 by default. Raise it, before resolving, for recursion meant to go deeper.
    public static var maximumResolutionDepth: Int {
        get { resolutionDepthLimit.load(ordering: .relaxed) }
        set {
            if newValue < 1 {
                fatalError("Depot: maximumResolutionDepth must be at least 1, not \(newValue).")
            }
            resolutionDepthLimit.store(newValue, ordering: .relaxed)
        }
    }

    /// An atomic, as every step of a resolution reads it; set before resolving, it orders
    /// nothing else.
    private static let resolutionDepthLimit = ManagedAtomic(256)

    /// Kept so FactoryKit code that tunes its cycle check builds; Depot ignores it.
    ///
    /// FactoryKit counts how often a factory repeats in a chain and, in debug builds, stops past
    /// this number (0 turns the check off). Depot stops on the first real re-entry of the same
    /// container, key and parameter, in every build, and never on recursion through other
    /// parameters, so there is nothing to tune.
    @available(*, deprecated, message: "Depot detects cycles exactly; remove this setting.")
    public var dependencyChainTestMax: Int {
        get { 0 }
        set {}
    }

    /// Kept so FactoryKit code that turns its debug-build cycle check on or off builds; Depot
    /// ignores it and reads `true`.
    ///
    /// Depot's cycle check is exact and cheap (a cycle is a real re-entry of the same
    /// container, key and parameter), so it is on in every build and cannot be turned off.
    @available(*, deprecated, message: "Depot always checks for cycles; remove this setting.")
    public var circularDependencyTesting: Bool {
        get { true }
        set {}
    }
}

extension ContainerManager {
    /// A monotonic clock, in seconds, that `timeToLive(_:)` measures ages with.
    public struct Clock: Sendable {
        private let read: @Sendable () -> Double

        /// Makes a clock that reads the time, in seconds, from `now`. Its values must never
        /// decrease.
        public init(_ now: @escaping @Sendable () -> Double) {
            read = now
        }

        /// The seconds since an arbitrary fixed point.
        public func now() -> Double { read() }

        /// The system's monotonic clock (not affected by changes of the wall clock).
        public static let monotonic = Clock {
            var time = timespec()
            clock_gettime(CLOCK_MONOTONIC, &time)
            return Double(time.tv_sec) + Double(time.tv_nsec) / 1_000_000_000
        }
    }
}

extension ContainerManager {
    /// Logs `message`, unless a message about `subject` (the message itself by default) was
    /// logged before.
    func warnOnce(_ message: String, about subject: String? = nil) {
        let isFirst = state.withLock { $0.seldom.warnedOnce.insert(subject ?? message).inserted }
        if isFirst { logger(message) }
    }

    /// Logs `message` in a debug build, unless a message about the factory `key` was logged
    /// before.
    func warnOnce(about key: FactoryKey, _ message: @autoclosure () -> String) {
        guard FactoryContext.isDebugBuild else { return }
        let isFirst = state.withLock { $0.seldom.warned.insert(key).inserted }
        if isFirst { logger(message()) }
    }

    /// Whether resolutions of this container add what they observe to ``dependencyGraph()``:
    /// each factory resolved (with its scope), and which factory's closure resolved it.
    ///
    /// Off by default; when off, a resolve does no recording work. While on, the container also
    /// keeps each factory it resolves (and so itself, which the factories' closures capture), so
    /// that ``ManagedContainer/validate(_:)`` with no roots checks them, until
    /// ``removeRecordedDependencies()``.
    public var isRecordingDependencies: Bool {
        get { state.withLock { state in state.isRecordingDependencies } }
        set { change { $0.isRecordingDependencies = newValue } }
    }

    /// The dependencies recorded while ``isRecordingDependencies`` was on; render them with
    /// ``DependencyGraph/dot()`` or ``DependencyGraph/mermaid()``.
    public func dependencyGraph() -> DependencyGraph {
        state.withLock { $0.seldom.dependencies }
    }

    /// Forgets the recorded dependencies, and the factories kept for ``ManagedContainer/validate(_:)``.
    public func removeRecordedDependencies() {
        state.withLock { ($0.seldom.dependencies, $0.seldom.resolved) = (DependencyGraph(), [:]) }
    }

    /// What this container keeps cached now, by scope name: each factory as `key<Type>`
    /// (followed by its parameter for factories that keep one instance per parameter), sorted.
    public func cachedInstances() -> [String: [String]] {
        var inventory = cacheOwner.state.withLock { $0.instances.inventory(owner: nil) }
        if let containerType = state.withLock({ $0.containerType }) {
            let singletons = realm.instances.withLock { $0.inventory(owner: containerType) }
            inventory.merge(singletons) { $0 + $1 }
        }
        // Described after the locks: a parameter's description is user code.
        return inventory.mapValues { keys in keys.map(\.description).sorted() }
    }
}

extension InstanceTable {
    /// The keys of the live instances `owner` keeps, by scope name; the caller describes them
    /// after the lock (a parameter's description is user code).
    func inventory(owner: ObjectIdentifier?) -> [String: [InstanceKey]] {
        var inventory: [String: [InstanceKey]] = [:]
        for (key, slot) in slots where key.owner == owner {
            switch slot {
            case .ready(let cell), .stored(let cell):
                guard isCurrent(cell.scope), slot.isGone != true else { continue }
                inventory[cell.scope.description, default: []].append(key)
            case .creating:
                continue
            }
        }
        return inventory
    }
}
