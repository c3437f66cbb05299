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
// @unchecked Sendable: all mutable state is inside `state`, a `Locked`.
public final class ContainerManager: @unchecked Sendable {
    let state: Locked<State>
    /// Once ``realm`` is bound (0 before), the address of the realm, and after it the address
    /// of its table's generation, read without the lock; `State` holds the realm itself. Two
    /// side words of `state`'s allocation.
    let realmAddress: UnsafeMutablePointer<UInt64>
    /// For a pristine lifetime scope (``adopt(_:)``), the address of its template and the
    /// template's generation, under which threads remember its hits (``hitOrigin``); 0 for
    /// any other manager. Two more side words of `state`'s allocation.
    let originAddress: UnsafeMutablePointer<UInt64>
    /// 1 while the container is plain (``State/updatePlain()``); a fifth side word.
    let plainAddress: UnsafeMutablePointer<UInt64>

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
        self.init(realm: Self.isolatedRealm)
    }

    /// The isolated singleton realm current where a manager is made, if any (see `init()`).
    static var isolatedRealm: SingletonRealm? {
        // Without isolated singletons, the process's realm is not even read: every thread
        // making containers would count references to it.
        guard depot_has_singleton_clones() != 0 else { return nil }
        let current = SingletonRealm.current
        return current === SingletonRealm.process ? nil : current
    }

    convenience init(realm: SingletonRealm?) {
        self.init(state: State(realm: realm))
    }

    /// Makes a manager whose state is `initial`, with the side words it points to.
    convenience init(state initial: consuming State) {
        self.init(locked: Locked(initial, isVersioned: true, sideWords: 5))
        let (realmAddress, plainAddress) = (self.realmAddress, self.plainAddress)
        state.withUnsharedValue { state in
            state.plainWord = plainAddress
            state.updatePlain()
            guard let realm = state.realm else { return }
            (realmAddress + 1).pointee = UInt64(UInt(bitPattern: realm.instances.generationPointer))
            realmAddress.pointee = UInt64(UInt(bitPattern: ObjectIdentifier(realm)))
        }
    }

    /// Makes a manager of `locked`, a new state or a lifetime scope's reused one (see
    /// `init(reusing:of:)`), whose side words it points to.
    init(locked: Caches) {
        state = locked
        realmAddress = locked.sideWords
        originAddress = locked.sideWords + 2
        plainAddress = locked.sideWords + 4
    }

    deinit {
        // On a thread that has resolved before, a lifetime scope leaves its emptied state to the
        // next one the thread makes, if it is untouched (see `init(reusing:of:)`), in place of
        // any the thread kept; or else its emptied table dictionaries, if the thread keeps none.
        guard let frame = depot_current_frame() else { return end(on: nil) }
        // The thread's frame, which outlives this call: not retained.
        Unmanaged<ResolutionFrame>.fromOpaque(frame)._withUnsafeGuaranteedRef { end(on: $0) }
    }

    /// The deinit's work, on `frame`, the calling thread's frame if it has one.
    private func end(on frame: ResolutionFrame?) {
        // Read without a new generation: the one change, the storage taken from a lifetime
        // scope's table (a reused state's replaced by the thread's emptied one, if it keeps
        // one), touches nothing a thread remembers (no thread remembers its cells).
        let (remembered, templates, tracked, spare, taken) = state.withLockReading {
            state, _ in
            // Unretained: the state, which this deinit still holds, holds its template.
            let spare = frame == nil ? nil : state.spareTemplate()
            return (
                state.instances.rememberedBy != nil, state.hasScopeTemplates,
                spare == nil ? state.instances.tracked : nil, spare,
                spare != nil
                    ? state.instances.takeCells(replacingWith: &frame!.spareStorage)
                    : state.template != nil && frame?.spareStorage == nil
                        ? state.instances.takeStorage() : nil
            )
        }
        // Threads' hit caches may hold this manager's cells and templates: they must not
        // outlive it.
        if remembered || templates {
            HitCache.purge(owner: ObjectIdentifier(self), templates: templates)
        }
        // The scopes' holders let go of the caches (which outlive this deinit only while a
        // scope's reset is using them), unless they are left to the next lifetime scope.
        tracked?.untrack(caches)
        // Not bound: a binding counted a reference to the frame.
        guard frame != nil else { return }
        var storage = consume taken
        // What the table kept is released here, with no lock held, as the table's end would.
        storage?.removeAllKeepingCapacity()
        if let spare {
            leaveState(of: spare, to: frame.unsafelyUnwrapped.hits)
        }
        if storage != nil {
            // Moved, not copied: a copy retained and released the dictionaries.
            frame.unsafelyUnwrapped.spareStorage = consume storage
        }
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
            state.seldom.snapshots.append(
                Snapshot(registrations: state.registrations, instances: state.instances.snapshot))
        }
    }

    /// Puts back what the last `push()` saved; does nothing if nothing was pushed.
    public func pop() {
        // What the snapshot replaces is dropped, and released after the lock.
        state.withLock { state in
            guard let snapshot = state.seldom.snapshots.popLast() else { return }
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

    /// A manager's per-container caches, as scopes reach them for `reset()`: its locked state
    /// itself, which their holders keep until the manager's deinit takes it back.
    typealias Caches = Locked<State>

    /// The per-container caches of this manager (see ``Caches``).
    var caches: Caches { state }
}

extension Locked where State == ContainerManager.State {
    /// Forgets the instances of `scope` these caches keep.
    func removeInstances(of scope: Scope) {
        // A custom storage's removeAll() runs here, by design (see `ScopeStorage`); the cells
        // dropped are released after the lock.
        withLock { state in
            state.instances.removeInstances(of: scope)
        }
    }
}
