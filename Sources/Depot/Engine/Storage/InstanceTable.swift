/// The instances of the caching scopes one owner keeps (a container's manager, or a singleton
/// realm), as one state machine: each key's ``Slot`` is being created, ready, or stored by a
/// custom scope. Each transition is a `mutating` function called under the owner's lock that
/// returns what its caller does after unlocking; what it lets go of is released after the lock.
@usableFromInline
struct InstanceTable: DropsValues {
    /// One key's state.
    @usableFromInline
    enum Slot {
        /// A synchronous factory runs on the thread that recorded the creation, an async one in
        /// a task of its own; other askers wait for it.
        case creating(Creation)
        /// The instance, kept in its cell.
        case ready(Cell)
        /// The instance is in a custom scope's storage, which counts only while this slot is
        /// here (so resets, registrations and `timeToLive` reach every storage); the cell holds
        /// its scope and age, not the instance.
        case stored(Cell)

        /// The creation in flight, if any: compared by identity, as a later creation for the
        /// same key is another.
        var creation: Creation? {
            guard case .creating(let creation) = self else { return nil }
            return creation
        }

        /// The scope whose instance the slot is, or is being made for.
        var scope: ObjectIdentifier {
            switch self {
            case .creating(let creation): creation.scope
            case .ready(let cell), .stored(let cell): ObjectIdentifier(cell.scope)
            }
        }

        /// The kept instance's cell, if the slot is ready.
        var cell: Cell? {
            guard case .ready(let cell) = self else { return nil }
            return cell
        }

        /// Whether the instance of a weak scope's cell is gone; `nil` if the slot is not one.
        var isGone: Bool? {
            guard let cell, cell.scope.holdsWeakly else { return nil }
            return cell.isGone
        }
    }

    /// What keeping an instance did, whether the creation has waiters to wake, and whether the
    /// owner must now join its scope's holders.
    @usableFromInline
    typealias Kept = (isKept: Bool, hadWaiters: Bool, isFirstOfScope: Bool)

    /// What a lookup found, for its caller to act on after the lock.
    @usableFromInline
    enum Lookup {
        case hit(Cell)
        /// The instance a custom scope's storage gave back.
        case stored(Any)
        case waitFor(Creation)
        /// The caller's creation is recorded (``start(_:for:)``): it must carry it out and
        /// `finish` it.
        case create(Creation)
        /// Nothing live is kept: the caller may `start` a creation, in the same lock section.
        case missing
    }

    var slots = InstanceSlots()
    /// The factories with instances kept per parameter value: only their removal scans.
    var parameterised = Set<FactoryKey>()
    /// The per-container scopes this table keeps instances of: those whose holders note its
    /// manager (`Scope.track`), or, for a lifetime scope, each with the reset it caught up with.
    var tracked = TrackedScopes()
    /// Whether the holders note this table's manager at all: a lifetime scope's are not, so
    /// that a request takes no process-wide lock; a reset reaches it through `catchUp(with:)`.
    var tracksHolders = true
    /// The storages of custom scopes, made on first use, by scope.
    var storages = [ObjectIdentifier: any ScopeStorage]()
    /// The teardown of kept instances with an `onDispose` closure.
    var disposals = [InstanceKey: Disposal]()
    /// The factories (and, among singletons, their containers' types) whose instances are kept
    /// with a time to live, and that time, for ``sweepStaleCells(now:)``.
    var expiring = [InstanceKey: Double]()
    /// Cells that can go stale (weak, or with a time to live) kept since the last
    /// ``sweepStaleCells(now:)``, and how many start the next.
    var staleable = 0
    var nextSweep = InstanceTable.firstSweep
    var dropped: [Any] = []

    /// The cell kept for `key`, if it belongs to `scope`, its instance is alive, and it is
    /// younger than `timeToLive` at `now` (read before the lock: a clock is user code).
    @inline(__always)
    func cell(
        for key: InstanceKey, in scope: Scope, timeToLive: Double? = nil, now: Double = 0
    ) -> Cell? {
        guard case .ready(let cell)? = slots.inlinedSlot(for: key),
            isLive(cell, in: scope, timeToLive, now)
        else { return nil }
        return cell
    }

    /// Whether `cell` is `scope`'s, not reset since, younger than `timeToLive` at `now`, and
    /// its instance alive.
    @inline(__always)
    private func isLive(_ cell: Cell, in scope: Scope, _ timeToLive: Double?, _ now: Double)
        -> Bool
    {
        // A cell of a weak scope is a WeakCell: the scope decides which kind `finish` makes.
        isCurrent(cell, in: scope, timeToLive, now) && !(scope.holdsWeakly && cell.isGone)
    }

    /// Whether `cell` is `scope`'s, not reset since, and younger than `timeToLive` at `now`.
    @inline(__always)
    private func isCurrent(_ cell: Cell, in scope: Scope, _ timeToLive: Double?, _ now: Double)
        -> Bool
    {
        guard cell.scope === scope, isCurrent(scope) else { return false }
        guard let timeToLive else { return true }
        return now - cell.createdAt < timeToLive
    }

    /// The kept instance, the creation in flight (readied for a waiter if `waits`), or
    /// `.missing`, for the caller to decide whether to ``start(_:for:)`` a creation.
    @usableFromInline
    mutating func lookup(
        _ key: InstanceKey, in scope: Scope, timeToLive: Double?, now: Double,
        step: @autoclosure () -> ResolutionStep, waits: Bool = true
    ) -> Lookup {
        catchUp(with: scope)
        let slot = slots[key]
        switch slot {
        case .ready(let cell)?:
            if isLive(cell, in: scope, timeToLive, now) { return .hit(cell) }
        case .stored(let cell)?:
            if let custom = scope.custom, isCurrent(cell, in: scope, timeToLive, now),
                let value = storedValue(for: key, in: scope, custom: custom, step: step())
            {
                return .stored(value)
            }
        case .creating(let creation)?:
            if waits { creation.prepareForWaiter() }
            return .waitFor(creation)
        case nil:
            break
        }
        return .missing
    }

    /// Records `creation` for `key`, in place of the slot there, if any (too old, another
    /// scope's, gone), which is dropped, and its instance disposed.
    @inline(__always)
    mutating func start(_ creation: Creation, for key: InstanceKey) {
        if let stale = slots.updateValue(.creating(creation), forKey: key) {
            drop(stale)
            dropDisposal(forKey: key)
        }
        if key.parameter != nil { parameterised.insert(key.factory) }
    }

    /// Takes `creation` out of its slot and keeps what it `made` (its cell, or its value in a
    /// custom scope's storage) unless a reset or a registration cancelled it; says whether a
    /// waiter came, for the caller to end the creation after the lock.
    mutating func finish(
        _ creation: Creation, key: InstanceKey, made: Made, scope: Scope, timeToLive: Double?
    ) -> Kept {
        let hadWaiters = creation.hasWaiters
        let notKept = (isKept: false, hadWaiters: hadWaiters, isFirstOfScope: false)
        if let cell = made.cell {
            // The cell takes the creation's place, unless a reset cancelled the creation.
            guard
                slots.replaceValue(
                    forKey: key, with: .ready(consume cell), if: { $0.creation === creation })
            else { return notKept }
            // A factory kept without a time to live since is no longer judged by its old one.
            if timeToLive != nil || !expiring.isEmpty { expiring[key.ofFactory] = timeToLive }
            if scope.holdsWeakly || timeToLive != nil {
                staleable += 1
                if staleable >= nextSweep { sweepStaleCells(now: made.createdAt) }
            }
        } else {
            guard isInFlight(creation, for: key) else { return notKept }
            guard let value = made.stored, let custom = scope.custom,
                let kept = storable(value, in: scope)
            else {
                slots.removeValue(forKey: key)
                return notKept
            }
            let scopeKey = ScopeKey(key, step: creation.step)
            storage(of: scope, custom).setValue(kept, for: scopeKey)
            slots[key] = .stored(Cell(scope: scope, createdAt: made.createdAt))
        }
        // A weak scope disposes nothing.
        replaceDisposal(for: key, with: scope.holdsWeakly ? nil : made.disposal)
        return (true, hadWaiters, scope.placement == .container && needsTracking(in: scope))
    }

    /// Forgets `creation`, which failed, if no reset cancelled it: the next resolve creates
    /// again.
    mutating func abandon(_ creation: Creation, for key: InstanceKey) {
        if isInFlight(creation, for: key) { slots.removeValue(forKey: key) }
    }

    /// Whether `creation` is still the one in flight for `key`: no reset cancelled it.
    @inline(__always)
    private func isInFlight(_ creation: Creation, for key: InstanceKey) -> Bool {
        slots[key]?.creation === creation
    }

    // MARK: Teardown of kept instances

    /// Keeps `disposal` for the instance kept now for `key`; the one it replaces is disposed.
    mutating func replaceDisposal(for key: InstanceKey, with disposal: Disposal?) {
        guard disposal != nil || !disposals.isEmpty else { return }
        let replaced =
            disposal.map { disposals.updateValue($0, forKey: key) }
            ?? disposals.removeValue(forKey: key)
        if let replaced, replaced !== disposal, replaced.claim() { drop(replaced) }
    }

    /// Drops the disposal of `key`, if any, claimed: it runs after the lock.
    mutating func dropDisposal(forKey key: InstanceKey) {
        if !disposals.isEmpty, let disposal = disposals.removeValue(forKey: key), disposal.claim() {
            drop(disposal)
        }
    }
}
