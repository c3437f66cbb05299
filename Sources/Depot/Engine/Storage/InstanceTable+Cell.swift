// The cells that keep instances, what a creation made for its table to keep (`Made`), and
// reading an instance back out of a cell: with `unsafeDowncast`, whose checks are not needed
// where the key already says what a cell holds, and, for a class reference kept as an
// `AnyObject`, `unsafeBitCast` between two types whose values are the same single reference.
extension InstanceTable {
    /// A kept instance. Cells never change after they are made, so a cell taken out of the table
    /// under the lock can be read after the lock is released.
    @usableFromInline
    class Cell {
        let scope: Scope
        let createdAt: Double
        /// Whether this is an ``ObjectCell``: read by a hit, which so needs no metadata of `T`.
        @usableFromInline let holdsObject: Bool
        init(scope: Scope, createdAt: Double, holdsObject: Bool = false) {
            (self.scope, self.createdAt, self.holdsObject) = (scope, createdAt, holdsObject)
        }

        /// The instance of a strong cell, of type `T`. The downcasts hold: a cell is kept under
        /// the key of the factory that made it, whose `T` the key names, and
        /// ``strongCell(_:scope:createdAt:)`` makes an ``ObjectCell`` exactly for a class
        /// reference. A weak scope's cell is read through ``weakObject``.
        @inlinable
        final func value<T>(as type: T.Type) -> T {
            guard holdsObject else { return unsafeDowncast(self, to: StrongCell<T>.self).value }
            return unsafeBitCast(unsafeDowncast(self, to: ObjectCell.self).object, to: T.self)
        }

        /// A strong cell's instance, for a shared graph that keeps it weakly once its
        /// resolutions end (`ResolutionGraph`), whose cells are all strong.
        var instance: Any {
            fatalError("Depot: a graph keeps its instances in strong cells")
        }

        /// The instance of a cell of a weak scope, if it is not gone. The downcast holds:
        /// `InstanceTable.finish` makes a ``WeakCell`` exactly for a weak scope.
        final var weakObject: AnyObject? {
            unsafeDowncast(self, to: WeakCell.self).object
        }

        /// Whether the instance of a cell of a weak scope is gone.
        final var isGone: Bool {
            weakObject == nil
        }
    }

    /// An instance held strongly that is not a class reference (see ``ObjectCell``).
    @usableFromInline
    final class StrongCell<Value>: Cell {
        @usableFromInline let value: Value

        init(_ value: Value, scope: Scope, createdAt: Double) {
            self.value = value
            super.init(scope: scope, createdAt: createdAt)
        }

        override var instance: Any { value }
    }

    /// A class instance held strongly. One class for every factory's type, so that the code a
    /// factory's module compiles to keep an instance names no cell type of its own, and is the
    /// same for every factory of a class type (LLVM merges it; see `Benchmarks/HISTORY.md`).
    @usableFromInline
    final class ObjectCell: Cell {
        @usableFromInline let object: AnyObject

        @usableFromInline
        init(_ object: AnyObject, scope: Scope, createdAt: Double) {
            self.object = object
            super.init(scope: scope, createdAt: createdAt, holdsObject: true)
        }

        override var instance: Any { object }

        /// Whether a `T` is kept in an ``ObjectCell``: a class reference, whose bits are an
        /// `AnyObject`'s (a class-bound existential with a witness table is larger, and is not).
        /// Asked where a cell is made; a hit reads ``Cell/holdsObject`` instead.
        static func holds<T>(_ type: T.Type) -> Bool {
            MemoryLayout<T>.size == MemoryLayout<AnyObject>.size && T.self is AnyObject.Type
        }
    }

    /// The strong cell that keeps `value`: an ``ObjectCell`` for a class reference, or a
    /// ``StrongCell``.
    static func strongCell<Value>(_ value: Value, scope: Scope, createdAt: Double) -> Cell {
        guard ObjectCell.holds(Value.self) else {
            return StrongCell(value, scope: scope, createdAt: createdAt)
        }
        // A class reference: its bits are an `AnyObject`'s, as `holds` checks.
        let object = unsafeBitCast(value, to: AnyObject.self)
        return ObjectCell(object, scope: scope, createdAt: createdAt)
    }

    /// An instance held weakly: it is gone once nobody else holds it.
    @usableFromInline
    final class WeakCell: Cell {
        // Set once, at init; loading a weak reference is thread-safe.
        @usableFromInline weak var object: AnyObject?

        @usableFromInline
        init(_ object: AnyObject, scope: Scope, createdAt: Double) {
            self.object = object
            super.init(scope: scope, createdAt: createdAt)
        }
    }
}

extension InstanceTable {
    /// What a creation made, as the table keeps it: the cell (a ``StrongCell``, a ``WeakCell``
    /// for a weak scope; none for a custom scope, a `nil` value, or a value type in a weak
    /// scope, which has no identity to hold weakly and is not kept), the value itself only for a
    /// custom scope's storage, its teardown, and when it was made.
    @usableFromInline
    struct Made {
        let cell: Cell?
        let stored: Any?
        let disposal: Disposal?
        let isNone: Bool
        let createdAt: Double

        /// What `value`, made at `createdAt` in `scope` with `disposal`, is kept as. Only a
        /// strong cell depends on the value's type; the rest is compiled once, in `erased`.
        static func of<Value>(
            _ value: Value, in scope: Scope, createdAt: Double, disposal: Disposal?
        ) -> Made {
            // `nil` is never kept: the next resolve runs the factory again (FactoryKit's rule).
            let isNone = Depot.isNone(value)
            guard !isNone, !scope.holdsWeakly, !scope.isCustom else {
                return erased(value, isNone: isNone, in: scope, createdAt: createdAt, disposal)
            }
            let cell = strongCell(value, scope: scope, createdAt: createdAt)
            return Made(
                cell: cell, stored: nil, disposal: disposal, isNone: false, createdAt: createdAt)
        }

        /// ``of(_:in:createdAt:disposal:)`` for a weak or custom scope, or a `nil` value: a
        /// weak cell of an object, the value for a custom scope's storage, or nothing.
        @usableFromInline
        static func erased(
            _ value: Any, isNone: Bool, in scope: Scope, createdAt: Double,
            _ disposal: Disposal?
        ) -> Made {
            let cell: Cell? =
                isNone || !scope.holdsWeakly
                ? nil : asObject(value).map { WeakCell($0, scope: scope, createdAt: createdAt) }
            return Made(
                cell: cell, stored: scope.isCustom && !isNone ? value : nil, disposal: disposal,
                isNone: isNone, createdAt: createdAt)
        }

        @usableFromInline
        init(cell: Cell?, stored: Any?, disposal: Disposal?, isNone: Bool, createdAt: Double) {
            (self.cell, self.stored, self.disposal) = (cell, stored, disposal)
            (self.isNone, self.createdAt) = (isNone, createdAt)
        }
    }
}

/// `value` as an object, or `nil` for a value type, which has no identity to hold weakly.
func asObject(_ value: Any) -> AnyObject? {
    if Swift.type(of: value) is AnyObject.Type { return value as AnyObject }
    // An optional's wrapped object, for `Factory<Service?>`: `Any` holding an optional is not
    // unwrapped by the cast.
    return (value as? any OptionalValue)?.wrapped.flatMap(asObject)
}

/// Whether `value` is an optional that holds nothing: for every type that is not an optional,
/// `false`, told from its metadata with no conformance lookup.
func isNone<Value>(_ value: Value) -> Bool {
    guard _isOptional(Value.self) else { return false }
    return (value as? any OptionalValue)?.wrapped == nil
}

/// An optional, whatever it wraps.
protocol OptionalValue {
    /// The wrapped value, or `nil`.
    var wrapped: Any? { get }
}

extension Optional: OptionalValue {
    var wrapped: Any? { self.map { $0 } }
}
