// The cells that keep instances, and reading an instance back out of one: with
// `unsafeDowncast`, whose checks are not needed where the key already says what a cell holds.
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
