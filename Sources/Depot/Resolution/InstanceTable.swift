/// The instances of the caching scopes kept by one owner (a container's manager, or the process
/// for singletons), and the creations of them in flight.
///
/// A value type with mutating methods: it lives inside a `Locked`, so every method runs under
/// its owner's lock.
@usableFromInline
struct InstanceTable {
    /// A kept instance. Cells never change after they are made, so a cell taken out of the table
    /// under the lock can be read after the lock is released.
    @usableFromInline
    class Cell {
        let scope: ObjectIdentifier
        let createdAt: Double
        init(scope: ObjectIdentifier, createdAt: Double) {
            self.scope = scope
            self.createdAt = createdAt
        }
    }

    /// An instance held strongly.
    @usableFromInline
    final class StrongCell<Value>: Cell {
        @usableFromInline let value: Value
        init(_ value: Value, scope: ObjectIdentifier, createdAt: Double) {
            self.value = value
            super.init(scope: scope, createdAt: createdAt)
        }
    }

    /// An instance held weakly: it is gone once nobody else holds it.
    @usableFromInline
    final class WeakCell: Cell {
        // Set once, at init; loading a weak reference is thread-safe.
        @usableFromInline weak var object: AnyObject?
        init(_ object: AnyObject, scope: ObjectIdentifier, createdAt: Double) {
            self.object = object
            super.init(scope: scope, createdAt: createdAt)
        }
    }

    /// What a lookup found.
    enum Lookup {
        case hit(Cell)
        case waitFor(Creation)
        case create(Creation)
    }

    private(set) var cells: [InstanceKey: Cell] = [:]
    private var creations: [InstanceKey: Creation] = [:]
    /// The factories with instances kept per parameter value: only their removal scans.
    private var parameterised: Set<FactoryKey> = []

    /// The cell kept for `key`, if it belongs to `scope`, its instance is alive, and it is
    /// younger than `timeToLive` at `now`.
    @inline(__always)
    func cell(
        for key: InstanceKey, in scope: Scope, timeToLive: Double?, now: () -> Double
    ) -> Cell? {
        guard let cell = cells[key], cell.scope == ObjectIdentifier(scope) else { return nil }
        if let timeToLive, now() - cell.createdAt >= timeToLive { return nil }
        // A cell of a weak scope is a WeakCell: the scope decides which kind `finish` makes.
        if scope.holdsWeakly, unsafeDowncast(cell, to: WeakCell.self).object == nil { return nil }
        return cell
    }

    /// The kept cell, or the creation to wait for, or a new creation that `frame` must carry
    /// out and pass to `finish`.
    mutating func lookup(
        _ key: InstanceKey, in scope: Scope, timeToLive: Double?, now: () -> Double,
        frame: @autoclosure () -> ResolutionFrame, step: @autoclosure () -> ResolutionStep
    ) -> Lookup {
        if let cell = cell(for: key, in: scope, timeToLive: timeToLive, now: now) {
            return .hit(cell)
        }
        if let creation = creations[key] {
            return .waitFor(creation)
        }
        let creation = Creation(owner: frame(), step: step(), scope: ObjectIdentifier(scope))
        creations[key] = creation
        if key.parameter != nil {
            parameterised.insert(key.factory)
        }
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

    /// Forgets the instances of one factory (and cancels its creations): without a scan, unless
    /// the factory keeps instances per parameter.
    mutating func removeInstances(of factory: FactoryKey, owner: ObjectIdentifier?) {
        let key = InstanceKey(factory: factory, owner: owner, parameter: nil)
        cells[key] = nil
        creations[key] = nil
        if parameterised.contains(factory) {
            removeAll { instance, _ in instance.factory == factory && instance.owner == owner }
        }
    }

    /// Forgets every instance and cancels every creation.
    mutating func removeAll() {
        cells.removeAll()
        creations.removeAll()
        parameterised.removeAll()
    }

    /// The kept instances, without the creations in flight: what `push()` saves.
    var snapshot: [InstanceKey: Cell] { cells }

    /// Puts back what `snapshot` saved; creations in flight are cancelled.
    mutating func restore(_ snapshot: [InstanceKey: Cell]) {
        cells = snapshot
        parameterised = Set(snapshot.keys.filter { $0.parameter != nil }.map(\.factory))
        creations.removeAll()
    }
}
