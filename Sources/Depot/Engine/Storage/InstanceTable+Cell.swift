// The cells that keep instances, what a creation made for its table to keep (`Made`), and
// reading an instance back out of a cell: with `unsafeDowncast`, whose checks are not needed
// where the key already says what a cell holds.
extension InstanceTable {
    /// A kept instance. Cells never change after they are made, so a cell taken out of the table
    /// under the lock can be read after the lock is released.
    @usableFromInline
    class Cell {
        let scope: Scope
        let createdAt: Double
        init(scope: Scope, createdAt: Double) {
            (self.scope, self.createdAt) = (scope, createdAt)
        }

        /// The instance, of type `T`: `nil` if it is held weakly and gone. The downcasts hold:
        /// a cell is kept under the key of the factory that made it, whose `T` the key names,
        /// and `InstanceTable.finish` makes a ``WeakCell`` exactly for a weak scope.
        @inlinable
        final func value<T>(as type: T.Type, isWeak: Bool) -> T? {
            guard isWeak else { return unsafeDowncast(self, to: StrongCell<T>.self).value }
            // Loaded once and unwrapped before the cast: the instance can go at any moment.
            guard let object = unsafeDowncast(self, to: WeakCell.self).object else { return nil }
            return object as? T
        }

        /// A ``StrongCell``'s instance, for a shared graph that keeps it weakly once its
        /// resolutions end (`ResolutionGraph`), whose cells are all strong.
        var instance: Any {
            fatalError("Depot: a graph keeps its instances in strong cells")
        }

        /// Whether the instance of a cell of a weak scope is gone.
        final var isGone: Bool {
            unsafeDowncast(self, to: WeakCell.self).object == nil
        }
    }

    /// An instance held strongly.
    @usableFromInline
    final class StrongCell<Value>: Cell {
        @usableFromInline let value: Value

        @usableFromInline
        init(_ value: Value, scope: Scope, createdAt: Double) {
            self.value = value
            super.init(scope: scope, createdAt: createdAt)
        }

        override var instance: Any { value }
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
        @inlinable
        static func of<Value>(
            _ value: Value, in scope: Scope, createdAt: Double, disposal: Disposal?
        ) -> Made {
            // `nil` is never kept: the next resolve runs the factory again (FactoryKit's rule).
            let isNone = Depot.isNone(value)
            guard !isNone, !scope.holdsWeakly, !scope.isCustom else {
                return erased(value, isNone: isNone, in: scope, createdAt: createdAt, disposal)
            }
            let cell = StrongCell(value, scope: scope, createdAt: createdAt)
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
