/// Owns a container's registrations, its per-container scope caches and its settings.
///
/// Every container has one, reached as `container.manager`:
///
/// ```swift
/// Container.shared.manager.defaultScope = .cached
/// Container.shared.manager.trace = true
/// Container.shared.manager.reset(scope: .cached)
/// ```
///
/// All members are safe to use from any thread.
// @unchecked Sendable: all mutable state is inside `state`, a `Locked`; `autoRegistrationGate`
// is a mutex.
public final class ContainerManager: @unchecked Sendable {
    // `caches` holds the same `Locked` as `state`; it is stored here too so that every resolve
    // reaches the lock in one load.
    let state: Locked<State>
    /// The per-container caches, as scopes reach them for `Scope.reset()`.
    let caches: Caches
    /// Where this container's singletons live: the realm current when it was created.
    @usableFromInline let realm: SingletonRealm
    /// Serialises `autoRegister()`; recursive so the container can resolve inside it.
    let autoRegistrationGate = Mutex(recursive: true)

    /// Makes a manager with no registrations and empty caches.
    ///
    /// Its singletons live in the singleton storage current now: the process's, or the one
    /// ``Scope/withIsolatedSingletons(_:isolation:)`` (DepotTesting's trait) provides.
    public convenience init() {
        self.init(realm: SingletonRealm.current)
    }

    init(realm: SingletonRealm) {
        self.realm = realm
        state = Locked(State(), isVersioned: true)
        caches = Caches(state: state)
    }

    deinit {
        // Threads' hit caches may hold this manager's cells: they must not outlive it.
        if state.withLockReading({ state, _ in state.instances.rememberedBy != nil }) {
            HitCache.purge(owner: ObjectIdentifier(self))
        }
    }

    /// The scope of every factory of this container that names none. `nil` means ``Scope/unique``.
    public var defaultScope: Scope? {
        get { state.withLockReading { state, _ in state.defaultScope } }
        set { replace(\.defaultScope, with: newValue) }
    }

    /// Whether each resolution of this container is logged through ``logger``.
    public var trace: Bool {
        get { state.withLockReading { state, _ in state.trace } }
        set { replace(\.trace, with: newValue) }
    }

    /// Receives trace lines and diagnostics. Prints by default.
    public var logger: (String) -> Void {
        get { state.withLockReading { state, _ in state.logger } }
        set { replace(\.logger, with: newValue) }
    }

    /// Whether resolving a `promised()` factory that nobody registered stops the process (with the
    /// container, key and type named) rather than returning `nil`. On in debug builds.
    public var promiseTriggersError: Bool {
        get { state.withLockReading { state, _ in state.promiseTriggersError } }
        set { replace(\.promiseTriggersError, with: newValue) }
    }

    /// Called with every instance this container resolves, after the factory's own decorator.
    public var decorator: ((Any) -> Void)? {
        get { state.withLockReading { state, _ in state.decorator } }
        set { replace(\.decorator, with: newValue) }
    }

    /// The monotonic clock that `timeToLive(_:)` measures ages with. Tests can set their own.
    public var clock: Clock {
        get { state.withLockReading { state, _ in state.clock } }
        set { replace(\.clock, with: newValue) }
    }

    /// Sets one setting; the old value (a closure may hold the last reference to what it
    /// captured) is released after the lock.
    private func replace<Value>(
        _ setting: WritableKeyPath<State, Value>, with newValue: Value
    ) {
        var replaced = newValue
        state.withLock { swap(&$0[keyPath: setting], &replaced) }
    }

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

    /// Forgets registrations, contexts and cached instances, as `options` says.
    ///
    /// - Parameter options: what to forget; ``FactoryResetOptions/all`` by default. Singletons
    ///   are not touched: reset them with `Scope.singleton.reset()`. Forgetting registrations
    ///   runs `autoRegister()` again before the next use (never for a child container, whose
    ///   parent has run it). For a container that uses another's caches (`useScope(from:)`),
    ///   the caches forgotten are those shared ones.
    public func reset(options: FactoryResetOptions = .all) {
        // Only Depot's tables change under the lock; what they drop (instances, registered
        // closures) is released after it (see `DropsValues`).
        let sharedCaches = state.withLock { state -> ContainerManager? in
            switch options {
            case .none:
                return nil
            case .all:
                state.removeAllRegistrations()
                state.instances.removeAll()
                // A child never runs autoRegister(): its parent has.
                state.isAutoRegistered = state.parent != nil
            case .registration:
                for key in state.registrations.keys {
                    state.removeFactory(for: key)
                }
                state.isAutoRegistered = state.parent != nil
            case .context:
                for key in state.registrations.keys {
                    state.removeContexts(for: key)
                }
            case .scope:
                state.instances.removeAll()
            }
            return options == .all || options == .scope ? state.cacheOwner : nil
        }
        sharedCaches?.state.withLock { $0.instances.removeAll() }
    }

    /// Forgets the instances this container keeps for `scope`.
    ///
    /// For a process-wide scope (``Scope/singleton``, ``Scope/weakSingleton``, a process-placed
    /// ``Scope/Custom``), there is one storage for every container: this forgets all of that
    /// scope's instances in it, as `scope.reset()` does. For a custom scope, the storage's
    /// `removeAll()` is called.
    public func reset(scope: Scope) {
        if scope.placement == .process {
            realm.removeInstances(of: scope)
        } else {
            removeInstances(of: scope)
        }
    }

    /// Saves registrations, contexts and cached instances, so `pop()` can put them back.
    ///
    /// ```swift
    /// Container.shared.manager.push()
    /// Container.shared.api.register { MockAPI() }
    /// // ...
    /// Container.shared.manager.pop()
    /// ```
    public func push() {
        // Copies references: releases nothing.
        state.withLock { state in
            state.snapshots.append(
                Snapshot(registrations: state.registrations, instances: state.instances.snapshot))
        }
    }

    /// Puts back what the last `push()` saved; does nothing if nothing was pushed.
    public func pop() {
        // What the snapshot replaces is dropped, and released after the lock.
        state.withLock { state in
            guard let snapshot = state.snapshots.popLast() else { return }
            state.removeAllRegistrations()
            state.registrations = snapshot.registrations
            state.instances.restore(snapshot.instances)
        }
    }

    func removeInstances(of scope: Scope) {
        cacheOwner.caches.removeInstances(of: scope)
    }

    /// The manager whose per-container caches this one uses: itself, unless `useScope(from:)`
    /// gave it another's.
    var cacheOwner: ContainerManager {
        state.withLock { $0.cacheOwner } ?? self
    }

    /// Runs `body` on the per-container caches this manager uses, under their lock.
    func withCaches<Result>(_ body: (inout InstanceTable) -> Result) -> Result {
        cacheOwner.state.withLock { body(&$0.instances) }
    }

    /// A manager's per-container caches, for scopes to reset; they hold it weakly and it lives
    /// as long as its manager.
    final class Caches: Sendable {
        let state: Locked<State>

        init(state: Locked<State>) {
            self.state = state
        }

        func removeInstances(of scope: Scope) {
            // A custom storage's removeAll() runs here, by design (see `ScopeStorage`); the
            // cells dropped are released after the lock.
            state.withLock { state in
                state.instances.removeInstances(of: scope)
            }
        }
    }

    /// Runs the container's `autoRegister()` if it has not run since the manager was made or its
    /// registrations were reset. Other threads wait for it.
    ///
    /// - Returns: `true` when the calling thread is inside `autoRegister()` itself (it resolves or
    ///   registers while registering), so it must go on without waiting for itself.
    @discardableResult
    @usableFromInline
    func autoRegisterIfNeeded(_ container: any ManagedContainer) -> Bool {
        // Recursive: the thread running autoRegister() gets through; every other thread waits here
        // until it has finished.
        autoRegistrationGate.lock()
        defer { autoRegistrationGate.unlock() }
        let phase = state.withLock { state -> AutoRegistrationPhase in
            if state.containerType == nil {
                state.containerType = ObjectIdentifier(Swift.type(of: container))
            }
            if state.isAutoRegistered { return .done }
            if state.isAutoRegistering { return .runningOnThisThread }
            state.isAutoRegistering = true
            return .toRun
        }
        switch phase {
        case .done:
            return false
        case .runningOnThisThread:
            return true
        case .toRun:
            // User code, outside `state`'s lock but inside the recursive gate, by design: the
            // thread registering may resolve and register (it gets through the gate again);
            // other threads wait until it has finished.
            (container as? AutoRegistering)?.autoRegister()
            state.withLock { state in
                state.isAutoRegistering = false
                state.isAutoRegistered = true
            }
            return false
        }
    }

    private enum AutoRegistrationPhase {
        case done, runningOnThisThread, toRun
    }
}
