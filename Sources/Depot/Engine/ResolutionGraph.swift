/// What an async factory found in a graph.
@usableFromInline
enum GraphLookup {
    /// The instance, of the type its key names.
    case kept(Any)
    case waitFor(AsyncCreation)
    case create
}

/// A graph-scoped instance made earlier in a synchronous resolution.
@usableFromInline
enum GraphInstance {
    /// In the resolving thread's own cells (`ResolutionFrame`): a cell of the key's `T`.
    case local(InstanceTable.Cell)
    /// In a graph shared with a `Lazy`, a `Provider` or an async resolution: a `T`.
    case shared(Any)

    /// The instance, of the type `T` its key names.
    @inlinable
    @inline(__always)
    func value<T>(as type: T.Type) -> T {
        switch self {
        case .local(let cell): cell.value(as: T.self, isWeak: false)!
        case .shared(let instance): instance as! T
        }
    }
}

/// The graph-scoped instances of one resolution graph: the outermost resolve on a thread and
/// every resolve nested inside it, and later the resolves of the `Lazy`s and `Provider`s made
/// during it, which join the graph. Made when the first `Lazy` or `Provider` is: until then the
/// resolving thread's frame keeps the instances, without a lock.
///
/// While a resolution runs in the graph, its instances are held strongly; once the last one has
/// returned they are held weakly, so a `Lazy` or `Provider` that keeps the graph never keeps its
/// instances alive (a value type, which cannot be held weakly, is dropped then).
@usableFromInline
final class ResolutionGraph: Sendable {
    private struct State: DropsValues {
        var instances = [InstanceKey: Entry]()
        /// How many outermost resolutions (on any thread) run in the graph now.
        var resolutions = 0
        /// The async factories' creations in flight: child tasks of one resolution may ask for
        /// the same graph-scoped instance at once.
        /// `nil` for a creation nobody waits for yet.
        var creations = [InstanceKey: AsyncCreation?]()
        /// Whether a `Lazy` or `Provider` was made in the graph: only then does it keep weak
        /// references to its instances once its resolutions are over.
        var isShared = false
        /// The instances let go of, released after the lock.
        var dropped: [Any] = []

        func instance(for key: InstanceKey) -> Any? {
            switch instances[key] {
            case .strong(let instance): instance
            case .weak(let box): box.object
            case nil: nil
            }
        }

        mutating func lookup(_ key: InstanceKey, step: ResolutionStep) -> GraphLookup {
            if let instance = instance(for: key) { return .kept(instance) }
            switch creations[key] {
            case nil:
                // No waiter yet, so nothing to allocate: most graph instances never get one.
                creations[key] = .some(nil)
                return .create
            case .some(let creation?):
                return .waitFor(creation)
            case .some(nil):
                let creation = AsyncCreation(step: step)
                creations[key] = creation
                return .waitFor(creation)
            }
        }

        mutating func finish(_ key: InstanceKey, instance: Any?) -> AsyncCreation? {
            let creation = creations.removeValue(forKey: key) ?? nil
            if let instance {
                keep(instance, for: key)
            }
            return creation
        }

        mutating func keep(_ instance: Any, for key: InstanceKey) {
            if let replaced = instances.updateValue(.strong(instance), forKey: key) {
                drop(replaced)
            }
        }

        mutating func leave() {
            resolutions -= 1
            guard resolutions == 0 else { return }
            if !instances.isEmpty { drop(instances) }
            guard isShared else {
                instances = [:]
                return
            }
            instances = instances.compactMapValues { entry in
                switch entry {
                case .strong(let instance):
                    asObject(instance).map { .weak(WeakBox($0)) }
                case .weak(let box):
                    box.object == nil ? nil : entry
                }
            }
        }
    }

    private enum Entry {
        case strong(Any)
        case weak(WeakBox)
    }

    private let state = Locked(State())

    /// The instance kept for `key`, if it is still alive.
    func instance(for key: InstanceKey) -> Any? {
        state.withLock { $0.instance(for: key) }
    }

    /// What an async factory finds for its `factory` key of `owner` (and `parameter`): the
    /// instance, or the creation to wait for, or `.create` when it must make the instance and
    /// pass it to `finish`.
    @usableFromInline
    func lookup(
        _ factory: FactoryKey, owner: ObjectIdentifier, parameter: ParameterKey?,
        step: ResolutionStep
    ) -> GraphLookup {
        let key = InstanceKey(factory: factory, owner: owner, parameter: parameter)
        return state.withLock { $0.lookup(key, step: step) }
    }

    /// Ends the creation `lookup` asked for, keeping `instance` (`nil`: the factory threw);
    /// returns the creation other tasks wait for, if any, for the caller to finish.
    @usableFromInline
    func finish(
        _ factory: FactoryKey, owner: ObjectIdentifier, parameter: ParameterKey?, instance: Any?
    ) -> AsyncCreation? {
        let key = InstanceKey(factory: factory, owner: owner, parameter: parameter)
        return state.withLock { $0.finish(key, instance: instance) }
    }

    /// Keeps `instance` for `key`, strongly while a resolution runs in the graph.
    func setInstance(_ instance: Any, for key: InstanceKey) {
        state.withLock { $0.keep(instance, for: key) }
    }

    /// Keeps `instances`, which the resolution that made this graph kept before anything
    /// shared it, strongly.
    func adopt(_ instances: HashTable<InstanceKey, InstanceTable.Cell>) {
        state.withLock { state in
            for (key, cell) in instances {
                state.keep(cell.instance, for: key)
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

    /// A resolution that ran in the graph has returned: when it was the last, the graph lets go
    /// of its instances (keeping weak references to the objects among them).
    func leave() {
        state.withLock { $0.leave() }
    }
}
