/// The instances of the caching scopes one owner keeps (a container's manager, or a singleton
/// realm), and their creations in flight. What a method lets go of is released after the lock.
@usableFromInline
struct InstanceTable: DropsValues {
    /// What keeping an instance did, and whether the owner must now join its scope's holders.
    @usableFromInline
    typealias Kept = (isKept: Bool, hadWaiters: Bool, isFirstOfScope: Bool)

    /// What a lookup found.
    @usableFromInline
    enum Lookup {
        case hit(Cell)
        /// The instance a custom scope's storage gave back.
        case stored(Any)
        case waitFor(PendingCreation)
        /// The caller's creation is recorded: it must carry it out and end it.
        case create
        /// Nothing is kept and the caller asked not to create (see `warmed()`).
        case absent
        /// Nothing is kept, a creation is in flight, and the caller asked not to wait.
        case busy
    }

    /// A value given to a custom scope's storage, which counts only while this entry is there:
    /// so resets, registrations and `timeToLive` reach every storage.
    struct Stored {
        let scope: Scope
        let createdAt: Double
    }

    var cells = HashTable<InstanceKey, Cell>()
    var creations = Creations()
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
    var stored = [InstanceKey: Stored]()
    /// The teardown of kept instances with an `onDispose` closure.
    var disposals = [InstanceKey: Disposal]()
    /// Weak cells kept since the last ``sweepGoneCells()``, and how many start the next.
    var weakCells = 0
    var nextSweep = InstanceTable.firstSweep
    var dropped: [Any] = []

    /// The cell kept for `key`, if it belongs to `scope`, its instance is alive, and it is
    /// younger than `timeToLive` at `now` (read before the lock: a clock is user code).
    @inline(__always)
    func cell(
        for key: InstanceKey, in scope: Scope, timeToLive: Double? = nil, now: Double = 0
    ) -> Cell? {
        guard let cell = cells[key], cell.scope === scope, isCurrent(scope) else { return nil }
        if let timeToLive, now - cell.createdAt >= timeToLive { return nil }
        // A cell of a weak scope is a WeakCell: the scope decides which kind `finish` makes.
        if scope.holdsWeakly, cell.isGone { return nil }
        return cell
    }

    /// The kept cell, the creation to wait for (`.busy` if `waits` is false), or `.create`: the
    /// creation `makeCreation` made is recorded, for the caller to carry out and `finish`.
    @usableFromInline
    mutating func lookup(
        _ key: InstanceKey, in scope: Scope, timeToLive: Double?, now: Double,
        step: @autoclosure () -> ResolutionStep, waits: Bool = true,
        makeCreation: () -> PendingCreation?
    ) -> Lookup {
        catchUp(with: scope)
        if let custom = scope.custom {
            if let value = storedValue(
                for: key, in: scope, custom: custom, timeToLive: timeToLive, now: now,
                step: step())
            {
                return .stored(value)
            }
        } else if let cell = cell(for: key, in: scope, timeToLive: timeToLive, now: now) {
            return .hit(cell)
        }
        if let creation = creations.creation(for: key) {
            guard waits else { return .busy }
            creation.prepareForWaiter()
            return .waitFor(creation)
        }
        guard let creation = makeCreation() else { return .absent }
        creations.start(creation, for: key, scope: scope)
        if key.parameter != nil { parameterised.insert(key.factory) }
        return .create
    }

    /// Ends `creation` and keeps its `value`, unless a reset or a registration cancelled it.
    @inlinable
    mutating func finish<Value>(
        _ creation: PendingCreation, key: InstanceKey, value: Value, scope: Scope,
        createdAt: Double, disposal: Disposal? = nil
    ) -> Bool {
        // `nil` is never kept: the next resolve runs the factory again (FactoryKit's rule).
        let none = isNone(value)
        var cell: Cell?
        if !none, !scope.isCustom {
            // A value type has no identity to hold weakly: it is not kept (the scope acts as
            // `unique` for it).
            cell =
                scope.holdsWeakly
                ? asObject(value).map {
                    InstanceTable.WeakCell($0, scope: scope, createdAt: createdAt)
                }
                : InstanceTable.StrongCell<Value>(value, scope: scope, createdAt: createdAt)
        }
        return keep(
            creation, key: key, value: value, isNone: none, cell: cell, scope: scope,
            createdAt: createdAt, disposal: disposal)
    }

    /// ``finish(_:key:value:scope:createdAt:disposal:)`` with the cell made (`nil` for a custom
    /// scope, whose storage gets `value`, and when nothing is kept).
    @usableFromInline
    mutating func keep(
        _ creation: PendingCreation, key: InstanceKey,
        value: @autoclosure () -> Any, isNone: Bool, cell: consuming Cell?, scope: Scope,
        createdAt: Double, disposal: Disposal?
    ) -> Bool {
        guard creations.end(creation, for: key), !isNone else { return false }
        // A weak scope disposes nothing.
        let disposal = scope.holdsWeakly ? nil : disposal
        if let custom = scope.custom {
            let kept: Any
            if scope.holdsWeakly {
                guard let object = asObject(value()) else { return false }
                kept = WeakBox(object)
            } else {
                kept = value()
            }
            replaceDisposal(for: key, with: disposal)
            storage(of: scope, custom).setValue(kept, for: ScopeKey(key, step: creation.step))
            stored[key] = Stored(scope: scope, createdAt: createdAt)
            return true
        }
        // The cell moves into the table (`consume`): a copy would count a reference to it.
        guard let cell = consume cell else { return false }
        replaceDisposal(for: key, with: disposal)
        // A cell replaced here is one `timeToLive` found too old, or another scope's.
        dropCell(replacedBy: consume cell, for: key)
        if scope.holdsWeakly {
            weakCells += 1
            if weakCells >= nextSweep { sweepGoneCells() }
        }
        return true
    }

    /// Keeps `cell` for `key`; the cell it replaces, if any, is dropped.
    private mutating func dropCell(replacedBy cell: consuming Cell, for key: InstanceKey) {
        if let replaced = cells.updateValue(consume cell, forKey: key) {
            drop(replaced)
        }
    }
}
