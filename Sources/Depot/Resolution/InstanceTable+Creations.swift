// The list (or, past a few, the index) of nodes links memory that its creators own: every node
// is reached only under the table's lock (which `InstanceTable`'s methods run under), and a
// creator keeps its node alive from the lookup that links it until the end that unlinks it (or
// after a reset unlinked it) has returned; see
// `FactoryRegistration.instance(in:key:parameter:plan:frame:origin:)` and `asyncInstance`.

/// A creation in flight, as an instance table links it: a node in its creator's memory (a
/// synchronous creator's stack, an async creation's own allocation), so that starting and ending
/// an uncontended creation allocates nothing, hashes nothing and copies few words.
///
/// The table links it under its lock, at the lookup that starts the creation, and unlinks it
/// under the same lock, at the creation's end or at a reset that cancels it. Between the two,
/// every thread reaches it only under that lock; its creator keeps the memory alive until the
/// end has returned, and never unlinks it itself but through the table.
@usableFromInline
struct InFlight {
    let key: InstanceKey
    let scope: ObjectIdentifier
    /// For a synchronous creation: what the first thread to wait for it makes its ``Creation``
    /// from. `nil` for an async one.
    let unshared: UnsharedCreation?
    /// The record others wait on: a ``Creation`` made by the first waiter of a synchronous
    /// creation (`nil` for nearly every one), or an ``AsyncCreation``, made with the node.
    var shared: PendingCreation?
    /// Whether a reset cancelled (and unlinked) the creation: its creator must not keep what
    /// it makes.
    var isCancelled = false
    /// The next creation in the table's list.
    var next: UnsafeMutablePointer<InFlight>?

    @usableFromInline
    init(key: InstanceKey, scope: ObjectIdentifier, unshared: UnsharedCreation) {
        self.key = key
        self.scope = scope
        self.unshared = unshared
    }

    init(key: InstanceKey, scope: ObjectIdentifier, shared: AsyncCreation) {
        self.key = key
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
    /// The creating thread's frame and the parameter of its step, unretained: the node is
    /// linked only between the creator's lookup and its end of the creation (or a reset), while
    /// the creator runs on that frame with that step on its path.
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
    /// The creations in flight, as a list of their nodes (see ``InFlight``), the latest first.
    ///
    /// A table has few creations in flight at once (one per thread or task creating in it, for
    /// each level of a nested creation, which end in reverse), so the list is searched by
    /// comparing keys: nearly always empty, or one long. Once more than ``listed`` are linked,
    /// they move to a dictionary by key until none is left: many tasks creating different
    /// instances of one table at once (thousands of per-parameter async singletons started
    /// together) would otherwise search a long list under the lock at every lookup and end.
    ///
    /// A synchronous creation is plain values until a second thread finds it: that thread makes
    /// its ``Creation`` (the condition it sleeps on) under the table's lock, where the creator
    /// ends it. A reset cancels creations: it unlinks and marks them, and their creators, who
    /// still hold the nodes, wake their waiters as they end them.
    struct Creations {
        private var first: UnsafeMutablePointer<InFlight>?
        /// The creations by key, in place of the list, from the moment more than ``listed``
        /// were linked until none is left.
        private var index: [InstanceKey: UnsafeMutablePointer<InFlight>]?

        /// How many creations the list holds before they move to the index.
        static let listed = 8

        /// Whether no creation is in flight.
        var isEmpty: Bool { first == nil && index == nil }

        /// The node of the creation in flight for `key`, if any.
        private func node(for key: InstanceKey) -> UnsafeMutablePointer<InFlight>? {
            if let index { return index[key] }
            var link = first
            while let node = link {
                if node.pointee.key == key { return node }
                link = node.pointee.next
            }
            return nil
        }

        /// The creation in flight for `key`, as one to wait for: a `Creation` is made for an
        /// unshared one.
        mutating func waitable(for key: InstanceKey) -> PendingCreation? {
            guard let node = node(for: key) else { return nil }
            if let shared = node.pointee.shared { return shared }
            let creation = Creation(waitingFor: node.pointee)
            node.pointee.shared = creation
            return creation
        }

        /// Whether a creation for `key` is in flight.
        func contains(_ key: InstanceKey) -> Bool {
            node(for: key) != nil
        }

        /// Links `node`, a creation for a key that has none in flight.
        mutating func start(_ node: UnsafeMutablePointer<InFlight>) {
            if index != nil {
                index![node.pointee.key] = node
                return
            }
            node.pointee.next = first
            first = node
            var length = 0
            var link = first
            while let linked = link, length <= Self.listed {
                length += 1
                link = linked.pointee.next
            }
            if length > Self.listed { moveToIndex() }
        }

        /// Moves the list's creations to the index.
        @inline(never)
        private mutating func moveToIndex() {
            var nodes = [InstanceKey: UnsafeMutablePointer<InFlight>]()
            while let node = first {
                first = node.pointee.next
                node.pointee.next = nil
                nodes[node.pointee.key] = node
            }
            index = nodes
        }

        /// Ends the creation `node`: returns whether it was still current (not cancelled), and
        /// its shared record, if any thread or task may wait on it.
        mutating func end(_ node: UnsafeMutablePointer<InFlight>) -> (
            isCurrent: Bool, shared: PendingCreation?
        ) {
            guard !node.pointee.isCancelled else { return (false, node.pointee.shared) }
            unlink(node)
            return (true, node.pointee.shared)
        }

        /// Takes `node`, which is linked, out of the list or the index.
        private mutating func unlink(_ node: UnsafeMutablePointer<InFlight>) {
            if index != nil {
                unindex(node)
                return
            }
            let next = node.pointee.next
            node.pointee.next = nil
            if first == node {
                first = next
                return
            }
            var previous = first
            while let current = previous, current.pointee.next != node {
                previous = current.pointee.next
            }
            previous?.pointee.next = next
        }

        /// Takes `node` out of the index; drops the index once it is empty.
        @inline(never)
        private mutating func unindex(_ node: UnsafeMutablePointer<InFlight>) {
            index![node.pointee.key] = nil
            if index!.isEmpty { index = nil }
        }

        /// The nodes linked in the list or the index.
        private var nodes: [UnsafeMutablePointer<InFlight>] {
            if let index { return Array(index.values) }
            var nodes: [UnsafeMutablePointer<InFlight>] = []
            var link = first
            while let node = link {
                nodes.append(node)
                link = node.pointee.next
            }
            return nodes
        }

        /// Cancels `node`'s creation, which is linked.
        private mutating func cancel(_ node: UnsafeMutablePointer<InFlight>) {
            unlink(node)
            node.pointee.isCancelled = true
        }

        /// Cancels the creations `predicate` selects by key and scope.
        mutating func cancel(where predicate: (InstanceKey, ObjectIdentifier) -> Bool) {
            guard !isEmpty else { return }
            for node in nodes where predicate(node.pointee.key, node.pointee.scope) {
                cancel(node)
            }
        }

        /// Cancels the creation of `key`, if any.
        mutating func cancel(_ key: InstanceKey) {
            if let node = node(for: key) {
                cancel(node)
            }
        }

        /// Cancels every creation.
        mutating func cancelAll() {
            guard !isEmpty else { return }
            for node in nodes {
                cancel(node)
            }
        }
    }
}
