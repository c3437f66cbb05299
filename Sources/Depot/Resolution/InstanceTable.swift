/// The instances of the caching scopes kept by one owner (a container's manager, or the process
/// for singletons), and the creations of them in flight.
///
/// A value type with mutating methods: it lives inside a `Locked`, so every method runs under
/// its owner's lock.
struct InstanceTable {
    /// A kept instance.
    class Cell {
        let scope: ObjectIdentifier
        let createdAt: Double
        init(scope: ObjectIdentifier, createdAt: Double) {
            self.scope = scope
            self.createdAt = createdAt
        }
    }

    /// An instance held strongly.
    final class StrongCell<Value>: Cell {
        let value: Value
        init(_ value: Value, scope: ObjectIdentifier, createdAt: Double) {
            self.value = value
            super.init(scope: scope, createdAt: createdAt)
        }
    }

    /// An instance held weakly: it is gone once nobody else holds it.
    final class WeakCell: Cell {
        weak var object: AnyObject?
        init(_ object: AnyObject, scope: ObjectIdentifier, createdAt: Double) {
            self.object = object
            super.init(scope: scope, createdAt: createdAt)
        }
    }

    /// What a lookup found.
    enum Lookup<Value> {
        case hit(Value)
        case waitFor(Creation)
        case create(Creation)
    }

    private(set) var cells: [InstanceKey: Cell] = [:]
    private var creations: [InstanceKey: Creation] = [:]

    var isEmpty: Bool { cells.isEmpty }

    /// The kept instance for `key`, if it belongs to `scope`, is alive and is younger than
    /// `timeToLive` at `now`.
    @inline(__always)
    func instance<Value>(
        for key: InstanceKey, in scope: Scope, timeToLive: Double?, now: () -> Double
    ) -> Value? {
        guard let cell = cells[key], cell.scope == ObjectIdentifier(scope) else { return nil }
        if let timeToLive, now() - cell.createdAt >= timeToLive { return nil }
        if scope.holdsWeakly {
            return (cell as! WeakCell).object as? Value
        }
        // The key names the value's type and the scope names the kind of cell, so the cast
        // cannot fail.
        return unsafeDowncast(cell, to: StrongCell<Value>.self).value
    }

    /// The kept instance, or the creation to wait for, or a new creation that `frame` must
    /// carry out and pass to `finish`.
    mutating func lookup<Value>(
        _ key: InstanceKey, in scope: Scope, timeToLive: Double?, now: () -> Double,
        frame: @autoclosure () -> ResolutionFrame, step: @autoclosure () -> ResolutionStep
    ) -> Lookup<Value> {
        if let value: Value = instance(for: key, in: scope, timeToLive: timeToLive, now: now) {
            return .hit(value)
        }
        if let creation = creations[key] {
            return .waitFor(creation)
        }
        let creation = Creation(owner: frame(), step: step(), scope: ObjectIdentifier(scope))
        creations[key] = creation
        return .create(creation)
    }

    /// Keeps `value` made by `creation`, unless a reset or a registration cancelled the creation
    /// meanwhile. Returns whether the value was kept.
    @discardableResult
    mutating func finish<Value>(
        _ creation: Creation, key: InstanceKey, value: Value, scope: Scope, createdAt: Double
    ) -> Bool {
        guard creations[key] === creation else { return false }
        creations[key] = nil
        if scope.holdsWeakly {
            // A value type has no identity to hold weakly: it is not kept (the scope acts as
            // `unique` for it).
            guard Swift.type(of: value as Any) is AnyObject.Type else { return false }
            cells[key] = WeakCell(
                value as AnyObject, scope: ObjectIdentifier(scope), createdAt: createdAt)
        } else {
            cells[key] = StrongCell(value, scope: ObjectIdentifier(scope), createdAt: createdAt)
        }
        return true
    }

    /// Forgets the instances (and cancels the creations) that `predicate` selects by key and
    /// scope.
    mutating func removeAll(where predicate: (InstanceKey, ObjectIdentifier) -> Bool) {
        cells = cells.filter { !predicate($0.key, $0.value.scope) }
        creations = creations.filter { !predicate($0.key, $0.value.scope) }
    }

    /// Forgets every instance and cancels every creation.
    mutating func removeAll() {
        cells.removeAll()
        creations.removeAll()
    }

    /// The kept instances, without the creations in flight: what `push()` saves.
    var snapshot: [InstanceKey: Cell] { cells }

    /// Puts back what `snapshot` saved; creations in flight are cancelled.
    mutating func restore(_ snapshot: [InstanceKey: Cell]) {
        cells = snapshot
        creations.removeAll()
    }
}
