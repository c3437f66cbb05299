/// What a resolve found in a graph that several threads or tasks may resolve in at once.
enum GraphLookup {
    case kept(GraphInstance)
    /// Another thread's or task's creation of the instance: wait for it, then look again.
    case waitFor(Creation)
    /// The caller makes the instance, carrying out the creation recorded for it, then calls
    /// `finish`.
    case create(Creation)
}

/// A graph-scoped instance made earlier in the resolution.
@usableFromInline
enum GraphInstance {
    /// Held strongly while the graph's resolutions run: a cell of the key's `T`.
    case cell(InstanceTable.Cell)
    /// Held weakly by a shared graph once its resolutions ended, loaded: a `T`.
    case object(AnyObject)

    /// The instance, of the type `T` its key names.
    @inline(__always)
    func value<T>(as type: T.Type) -> T {
        switch self {
        case .cell(let cell): cell.value(as: T.self)
        case .object(let object): object as! T
        }
    }
}

/// The graph-scoped instances of an outermost resolve, the resolves nested in it, and later the
/// `Lazy`s and `Provider`s made during it; made when the first of those is (until then the
/// thread's frame keeps the instances). Held strongly while a resolution runs in the graph and
/// weakly after the last returns, so a `Lazy` never keeps them alive (a value is dropped then).
@usableFromInline
final class ResolutionGraph: Sendable {
    /// Graph-scoped instances, in strong cells of their keys' types.
    typealias Cells = HashTable<InstanceKey, InstanceTable.Cell>

    private struct State: DropsValues {
        /// The instances made while resolutions run.
        var instances = Cells()
        /// The objects among them once the resolutions of a shared graph ended.
        var weakInstances = HashTable<InstanceKey, WeakBox>()
        /// How many outermost resolutions (on any thread) run in the graph now.
        var resolutions = 0
        /// The creations in flight (threads sharing the graph, or child tasks, may ask for one
        /// instance at once).
        var creations = HashTable<InstanceKey, Creation>()
        /// Whether a `Lazy` or `Provider` keeps the graph: only then are its objects kept weakly.
        var isShared = false
        /// The instances let go of, released after the lock.
        var dropped: [Any] = []

        func instance(for key: InstanceKey) -> GraphInstance? {
            if let cell = instances[key] { return .cell(cell) }
            return weakInstances[key]?.object.map(GraphInstance.object)
        }

        mutating func lookup(_ key: InstanceKey, making: () -> Creation) -> GraphLookup {
            if let instance = instance(for: key) { return .kept(instance) }
            if let creation = creations[key] {
                creation.prepareForWaiter()
                return .waitFor(creation)
            }
            let creation = making()
            creations[key] = creation
            return .create(creation)
        }

        mutating func finish(_ key: InstanceKey, cell: InstanceTable.Cell?) -> Creation? {
            let creation = creations.removeValue(forKey: key)
            if let cell { keep(cell, for: key) }
            return creation?.hasWaiters == true ? creation : nil
        }

        mutating func keep(_ cell: InstanceTable.Cell, for key: InstanceKey) {
            if let replaced = instances.updateValue(cell, forKey: key) { drop(replaced) }
        }

        mutating func leave() {
            resolutions -= 1
            guard resolutions == 0, !instances.isEmpty else { return }
            let ended = instances
            drop(ended)
            instances = HashTable()
            guard isShared else { return }
            _ = weakInstances.remove { $0.value.object == nil }
            for (key, cell) in ended {
                // A value, which cannot be held weakly, also replaces an object kept before.
                weakInstances[key] = asObject(cell.instance).map(WeakBox.init)
            }
        }
    }

    private let state = Locked(State())

    /// The instance kept for `key`, the creation to wait for, or `.create` with the creation
    /// `making` makes, which the caller carries out (so that a circle of waits is found,
    /// `WaitGraph`), then calls `finish`: one instance per key however many threads and tasks
    /// ask at once.
    func lookup(_ key: InstanceKey, making: () -> Creation) -> GraphLookup {
        state.withLock { $0.lookup(key, making: making) }
    }

    /// Ends the creation `lookup` asked for, keeping `cell` (`nil`: the factory threw); returns
    /// the creation others wait for, if any, for the caller to finish.
    func finish(_ key: InstanceKey, cell: InstanceTable.Cell?) -> Creation? {
        state.withLock { $0.finish(key, cell: cell) }
    }

    /// Keeps `cell`, a strong cell of the key's type, for `key`: what a thread made before the
    /// graph was.
    func keep(_ cell: InstanceTable.Cell, for key: InstanceKey) {
        state.withLock { $0.keep(cell, for: key) }
    }

    /// Keeps what the thread's frame kept before the graph was made.
    func adopt(_ instances: Cells) {
        state.withLock { state in
            for (key, cell) in instances {
                state.keep(cell, for: key)
            }
        }
    }

    /// Notes that a `Lazy` or `Provider` keeps the graph, to resolve in it later.
    func share() -> ResolutionGraph {
        state.withLock { $0.isShared = true }
        return self
    }

    /// A resolution starts running in the graph.
    func enter() {
        state.withLock { $0.resolutions += 1 }
    }

    /// A resolution in the graph returned: after the last, its instances are let go of.
    func leave() {
        state.withLock { $0.leave() }
    }
}
