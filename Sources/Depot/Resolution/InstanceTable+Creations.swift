/// A creation in flight, as an instance table keeps it. Plain data but for `shared`, so that
/// starting and ending an uncontended creation copies words and allocates nothing.
@usableFromInline
struct InFlight {
    /// The creation's number in its table: what tells its creator whether a reset cancelled it.
    @usableFromInline let number: UInt
    let scope: ObjectIdentifier
    /// For a synchronous creation: what the first thread to wait for it makes its ``Creation``
    /// from. `nil` for an async one.
    let unshared: UnsharedCreation?
    /// The record others wait on: a ``Creation`` made by the first waiter of a synchronous
    /// creation (`nil` for nearly every one), or an ``AsyncCreation``, made with the entry.
    var shared: PendingCreation?

    @usableFromInline
    init(number: UInt, scope: ObjectIdentifier, unshared: UnsharedCreation) {
        self.number = number
        self.scope = scope
        self.unshared = unshared
    }

    init(number: UInt, scope: ObjectIdentifier, shared: AsyncCreation) {
        self.number = number
        self.scope = scope
        unshared = nil
        self.shared = shared
    }

    var step: ResolutionStep {
        shared?.step ?? unshared!.step
    }
}

/// What a table knows of the creator of a synchronous creation nobody waits for: enough for the
/// first thread that does to make its ``Creation``.
@usableFromInline
struct UnsharedCreation {
    /// The creating thread's frame and the parameter of its step, unretained: the entry exists
    /// only between the creator's lookup and its end of the creation (or a reset), while the
    /// creator runs on that frame with that step on its path.
    let owner: Unmanaged<ResolutionFrame>
    let parameter: Unmanaged<ResolutionParameter>?
    let manager: ObjectIdentifier
    let key: FactoryKey
    let containerType: Any.Type

    @usableFromInline
    init(owner: ResolutionFrame, step: borrowing ResolutionStep) {
        self.owner = Unmanaged.passUnretained(owner)
        parameter = step.parameter.map { Unmanaged.passUnretained($0) }
        manager = step.manager
        key = step.key
        containerType = step.containerType
    }

    /// The creator's step; read while the creator is still making it (see `owner`).
    var step: ResolutionStep {
        ResolutionStep(
            manager: manager, key: key, parameter: parameter?.takeUnretainedValue(),
            containerType: containerType)
    }
}

extension InstanceTable {
    /// The creations in flight by instance key, numbered as they start.
    ///
    /// A synchronous creation is an entry of plain values until a second thread finds it: that
    /// thread makes its ``Creation`` (the condition it sleeps on) under the table's lock, where
    /// the creator ends it. A reset cancels creations; a cancelled one that threads wait on is
    /// kept apart until its creator ends it and wakes them.
    struct Creations {
        private var entries = [InstanceKey: InFlight]()
        private var lastNumber: UInt = 0
        /// Cancelled synchronous creations with waiters, by number: made when a reset first
        /// cancels one (a reference, so that a table that never does has one word of it).
        private var cancelled: Cancelled?

        final class Cancelled {
            var byNumber = [UInt: PendingCreation]()
        }

        var isEmpty: Bool { entries.isEmpty }

        /// Whether no creation is in flight, cancelled ones included.
        var isIdle: Bool { entries.isEmpty && cancelled?.byNumber.isEmpty != false }

        /// The creation in flight for `key`, as one to wait for: a `Creation` is made for an
        /// unshared one.
        mutating func waitable(for key: InstanceKey) -> PendingCreation? {
            guard let entry = entries[key] else { return nil }
            if let shared = entry.shared { return shared }
            let creation = Creation(waitingFor: entry)
            entries[key]?.shared = creation
            return creation
        }

        /// Whether a creation for `key` is in flight.
        func contains(_ key: InstanceKey) -> Bool {
            entries[key] != nil
        }

        /// The number the next creation takes.
        var nextNumber: UInt { lastNumber &+ 1 }

        /// Starts `creation`, numbered ``nextNumber``, for `key`.
        mutating func start(_ key: InstanceKey, _ creation: InFlight) {
            lastNumber &+= 1
            // Stored with `updateValue`: a subscript assignment copied the entry as an optional,
            // through its type's value witnesses.
            entries.updateValue(creation, forKey: key)
        }

        /// Ends `creation` of `key`: returns whether it was still current (not cancelled), and
        /// its shared record, if any thread or task may wait on it.
        mutating func end(_ creation: InFlight, key: InstanceKey) -> (
            isCurrent: Bool, shared: PendingCreation?
        ) {
            let number = creation.number
            if let entry = entries.removeValue(forKey: key) {
                if entry.number == number { return (true, entry.shared) }
                // A creation started after a reset cancelled this one.
                entries[key] = entry
            }
            // Cancelled: only one with waiters was kept.
            return (false, cancelled?.byNumber.removeValue(forKey: number))
        }

        /// Cancels the creations `predicate` selects by key and scope; returns them, to be
        /// released after the lock.
        mutating func cancel(where predicate: (InstanceKey, ObjectIdentifier) -> Bool) -> [Any] {
            let selected = entries.filter { predicate($0.key, $0.value.scope) }
            return selected.keys.compactMap { cancel($0) }
        }

        /// Cancels the creation of `key`, if any; returns it, to be released after the lock.
        mutating func cancel(_ key: InstanceKey) -> Any? {
            guard let creation = entries.removeValue(forKey: key) else { return nil }
            // A synchronous one with waiters is kept for its creator to wake them (an async
            // one's creator holds it, and wakes them).
            if let shared = creation.shared, shared is Creation {
                let kept = cancelled ?? Cancelled()
                kept.byNumber[creation.number] = shared
                cancelled = kept
            }
            return creation
        }

        /// Cancels every creation; returns them, to be released after the lock.
        mutating func cancelAll() -> [Any] {
            entries.keys.compactMap { cancel($0) }
        }

        /// Takes the entries' dictionary out, with its room, for another table (a table going
        /// away has no creation in flight: a creator holds the table's owner).
        mutating func takeRoom() -> [InstanceKey: InFlight] {
            var taken = [InstanceKey: InFlight]()
            swap(&taken, &entries)
            return taken
        }

        /// Uses `room`, an empty dictionary another table left, for the entries of this (new,
        /// empty) map.
        mutating func use(_ room: inout [InstanceKey: InFlight]) {
            swap(&entries, &room)
        }
    }
}
