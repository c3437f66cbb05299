extension InstanceTable {
    /// The creations in flight, by key, with the scope each keeps its instance in.
    ///
    /// The lookup that finds no instance starts a creation here, under the table's lock; the
    /// creator ends it under the same lock as it keeps the instance. A reset cancels creations
    /// by taking them out: a creator whose creation is no longer the one recorded for its key
    /// (``end(_:for:)``) does not keep what it made, and still wakes its waiters, whose next
    /// lookup starts afresh.
    struct Creations {
        private var inFlight: [InstanceKey: (creation: PendingCreation, scope: ObjectIdentifier)] =
            [:]

        /// Whether no creation is in flight.
        var isEmpty: Bool { inFlight.isEmpty }

        /// The creation in flight for `key`, if any.
        func creation(for key: InstanceKey) -> PendingCreation? {
            inFlight[key]?.creation
        }

        /// Records `creation` for `key`, which has none in flight.
        mutating func start(_ creation: PendingCreation, for key: InstanceKey, scope: Scope) {
            inFlight[key] = (creation, ObjectIdentifier(scope))
        }

        /// Ends `creation` of `key`: returns whether it was still current (not cancelled).
        mutating func end(_ creation: PendingCreation, for key: InstanceKey) -> Bool {
            guard inFlight[key]?.creation === creation else { return false }
            inFlight[key] = nil
            return true
        }

        /// Cancels the creations `predicate` selects by key and scope.
        mutating func cancel(where predicate: (InstanceKey, ObjectIdentifier) -> Bool) {
            guard !isEmpty else { return }
            inFlight = inFlight.filter { !predicate($0.key, $0.value.scope) }
        }

        /// Cancels the creation of `key`, if any.
        mutating func cancel(_ key: InstanceKey) {
            inFlight[key] = nil
        }

        /// Cancels every creation.
        mutating func cancelAll() {
            inFlight.removeAll()
        }
    }
}
