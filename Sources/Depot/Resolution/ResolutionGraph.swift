/// The graph-scoped instances of one resolution graph: the outermost resolve on a thread and
/// every resolve nested inside it, and later the resolves of the `Lazy`s and `Provider`s made
/// during it, which join the graph.
///
/// While a resolution runs in the graph, its instances are held strongly; once the last one has
/// returned they are held weakly, so a `Lazy` or `Provider` that keeps the graph never keeps its
/// instances alive (a value type, which cannot be held weakly, is dropped then).
@usableFromInline
final class ResolutionGraph: Sendable {
    private struct State {
        var instances: [InstanceKey: Entry] = [:]
        /// How many outermost resolutions (on any thread) run in the graph now.
        var resolutions = 0
    }

    private enum Entry {
        case strong(Any)
        case weak(WeakBox)
    }

    private let state = Locked(State())

    /// The instance kept for `key`, if it is still alive.
    func instance(for key: InstanceKey) -> Any? {
        state.withLock { state in
            switch state.instances[key] {
            case .strong(let value): value
            case .weak(let box): box.object
            case nil: nil
            }
        }
    }

    /// Keeps `value` for `key`, strongly while a resolution runs in the graph.
    func setInstance(_ value: Any, for key: InstanceKey) {
        state.withLock { $0.instances[key] = .strong(value) }
    }

    /// A resolution starts running in the graph.
    func enter() {
        state.withLock { $0.resolutions += 1 }
    }

    /// A resolution that ran in the graph has returned: when it was the last, the graph lets go
    /// of its instances (keeping weak references to the objects among them).
    func leave() {
        state.withLock { state in
            state.resolutions -= 1
            guard state.resolutions == 0 else { return }
            state.instances = state.instances.compactMapValues { entry in
                switch entry {
                case .strong(let value):
                    guard Swift.type(of: value) is AnyObject.Type else { return nil }
                    return .weak(WeakBox(value as AnyObject))
                case .weak(let box):
                    return box.object == nil ? nil : entry
                }
            }
        }
    }

    /// Empties the graph for reuse by the next resolution on the same thread.
    func removeAll() {
        state.withLock { state in
            state.instances.removeAll(keepingCapacity: state.instances.count <= 64)
            state.resolutions = 0
        }
    }
}
