extension InstanceTable {
    /// The creations in flight, by key, with the scope each keeps its instance in. A reset
    /// cancels creations by taking them out: a creator whose creation is no longer recorded
    /// (``end(_:for:)``) keeps nothing and still wakes its waiters. The one creation a table
    /// nearly always has in flight is kept apart, so that it allocates and hashes nothing.
    struct Creations {
        typealias Entry = (key: InstanceKey, creation: PendingCreation, scope: ObjectIdentifier)

        private var first: Entry?
        private var rest: [InstanceKey: Entry] = [:]

        /// Whether no creation is in flight.
        var isEmpty: Bool { first == nil && rest.isEmpty }

        /// The creation in flight for `key`, if any.
        func creation(for key: InstanceKey) -> PendingCreation? {
            if let creation = first?.creation, first?.key == key { return creation }
            return rest.isEmpty ? nil : rest[key]?.creation
        }

        /// Records `creation` for `key`, which has none in flight.
        mutating func start(_ creation: PendingCreation, for key: InstanceKey, scope: Scope) {
            let entry = (key, creation, ObjectIdentifier(scope))
            if first == nil {
                first = entry
            } else {
                rest[key] = entry
            }
        }

        /// Ends `creation` of `key`: returns whether it was still current (not cancelled).
        mutating func end(_ creation: PendingCreation, for key: InstanceKey) -> Bool {
            // A creation is recorded for one key only, so finding it is finding its key.
            if first?.creation === creation {
                first = nil
                return true
            }
            guard !rest.isEmpty, rest[key]?.creation === creation else { return false }
            rest[key] = nil
            return true
        }

        /// Cancels the creations `predicate` selects by key and scope.
        mutating func cancel(where predicate: (InstanceKey, ObjectIdentifier) -> Bool) {
            if let first, predicate(first.key, first.scope) {
                self.first = nil
            }
            if !rest.isEmpty {
                rest = rest.filter { !predicate($0.key, $0.value.scope) }
            }
        }

        /// Cancels the creation of `key`, if any.
        mutating func cancel(_ key: InstanceKey) {
            cancel { candidate, _ in candidate == key }
        }

        /// Cancels every creation.
        mutating func cancelAll() {
            first = nil
            rest.removeAll()
        }
    }
}
