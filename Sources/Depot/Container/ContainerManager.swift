internal import CDepotAtomics

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
    /// The address of ``realm`` once it is bound (0 before), read without the lock; `State`
    /// holds the realm itself.
    private let realmAddress: UnsafeMutablePointer<UInt64>
    /// Serialises `autoRegister()`; recursive so the container can resolve inside it.
    let autoRegistrationGate = Mutex(recursive: true)

    /// Makes a manager with no registrations and empty caches.
    ///
    /// Made where singletons are isolated (inside
    /// `Scope.$singleton.withValue(Scope.singleton.clone())`,
    /// ``Scope/withIsolatedSingletons(_:isolation:)`` or DepotTesting's trait), its singletons
    /// live in that isolated storage. Made elsewhere, they live in the storage current when it
    /// first needs one: so FactoryKit's `Container.$shared.withValue(Container()) {
    /// Scope.$singleton.withValue(Scope.singleton.clone()) { ... } }` isolates the singletons
    /// of the container it makes outside the clone's scope.
    public convenience init() {
        let current = SingletonRealm.current
        self.init(realm: current === SingletonRealm.process ? nil : current)
    }

    init(realm: SingletonRealm?) {
        realmAddress = .allocate(capacity: 1)
        realmAddress.initialize(to: 0)
        var initial = State()
        if let realm {
            initial.realm = realm
            realmAddress.pointee = UInt64(UInt(bitPattern: ObjectIdentifier(realm)))
        }
        state = Locked(initial, isVersioned: true)
        caches = Caches(state: state)
    }

    /// Where this container's singletons live: an isolated realm current when the manager was
    /// made, or else the realm current when it first needed one.
    @usableFromInline
    var realm: SingletonRealm {
        let address = depot_atomic_load(realmAddress)
        guard address != 0 else { return bindRealm() }
        // `State.realm` holds it for as long as the manager lives.
        return Unmanaged<SingletonRealm>.fromOpaque(UnsafeRawPointer(bitPattern: UInt(address))!)
            .takeUnretainedValue()
    }

    /// Binds ``realm`` to the current one, unless another thread just did.
    private func bindRealm() -> SingletonRealm {
        state.withLock { state in
            if let realm = state.realm { return realm }
            let realm = SingletonRealm.current
            state.realm = realm
            depot_atomic_store(realmAddress, UInt64(UInt(bitPattern: ObjectIdentifier(realm))))
            return realm
        }
    }

    deinit {
        realmAddress.deallocate()
        // Threads' hit caches may hold this manager's cells: they must not outlive it.
        if state.withLockReading({ state, _ in state.instances.rememberedBy != nil }) {
            HitCache.purge(owner: ObjectIdentifier(self))
        }
    }

    /// The scope of every factory of this container that names none. `nil` means ``Scope/unique``.
    public var defaultScope: Scope? {
        get { state.withLockReading { state, _ in state.defaultScope } }
        set { replace(\.defaultScope, with: newValue?.identity) }
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
    /// A container does not own the instances of process-wide scopes (``Scope/singleton``,
    /// ``Scope/weakSingleton``, a process-placed ``Scope/Custom``): this leaves them alone, as
    /// FactoryKit does; `Scope.singleton.reset()` resets them. For a custom scope, the storage's
    /// `removeAll()` is called.
    public func reset(scope: Scope) {
        guard scope.placement != .process else { return }
        removeInstances(of: scope)
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
