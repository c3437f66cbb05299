/// The graph-scoped instances of the resolution running on one thread while nothing shares its
/// graph (see ``ResolutionFrame``): the thread's alone, so kept without a lock.
///
/// A resolution keeps none or a handful, so they are found by comparing keys in order, which
/// costs less than hashing one; past `scanLimit` instances a dictionary takes over, so that a
/// graph with hundreds of them is not searched in quadratic time.
struct LocalGraph {
    private struct Entry {
        let key: InstanceKey
        let instance: GraphItem
    }

    /// The most instances kept in `entries`.
    private static let scanLimit = 16

    private var entries: [Entry] = []
    /// Every instance, once there were more than `scanLimit`; `entries` is empty then.
    private var overflow = [InstanceKey: GraphItem]()

    var isEmpty: Bool { entries.isEmpty && overflow.isEmpty }

    /// The instance kept for `key`, if any; setting one replaces what was kept for it.
    subscript(key: InstanceKey) -> GraphItem? {
        get {
            guard overflow.isEmpty else { return overflow[key] }
            for entry in entries where entry.key.factory == key.factory && entry.key == key {
                return entry.instance
            }
            return nil
        }
        set {
            if let index = entries.firstIndex(where: { $0.key == key }) {
                entries.remove(at: index)
            }
            if overflow.isEmpty, entries.count < Self.scanLimit {
                if let newValue { entries.append(Entry(key: key, instance: newValue)) }
                return
            }
            for entry in entries { overflow[entry.key] = entry.instance }
            entries.removeAll(keepingCapacity: true)
            overflow[key] = newValue
        }
    }

    /// Every instance with its key, boxed for a ``ResolutionGraph``.
    var all: [InstanceKey: GraphInstance] {
        guard overflow.isEmpty else { return overflow.mapValues(\.boxed) }
        var all: [InstanceKey: GraphInstance] = [:]
        for entry in entries { all[entry.key] = entry.instance.boxed }
        return all
    }

    /// Empties the graph that ended, keeping room for the next resolution on the thread (the
    /// dictionary's only if it was not unusually large).
    mutating func removeAllForNextGraph() {
        // One by one, each destroyed where its type is known: `removeAll(keepingCapacity:)`
        // goes through the runtime's generic array destroy and the entry's value witness.
        while entries.popLast() != nil {}
        if !overflow.isEmpty { overflow.removeAllForNextGraph() }
    }
}

/// A graph-scoped instance as a resolution keeps it: an object as it is, anything else in a
/// ``GraphValue`` of its type, so that most graph instances (objects) take no allocation of
/// their own.
@usableFromInline
enum GraphItem {
    /// An instance of the key's type, which is a class: one reference, kept as it is.
    case bare(AnyObject)
    case boxed(GraphInstance)

    /// `value`, bare when its type is a class (one reference, as `AnyObject` is), boxed
    /// otherwise. Specialised for `T`, the test costs nothing.
    @inlinable
    init<T>(_ value: T) {
        if _canBeClass(T.self) == 1, MemoryLayout<T>.size == MemoryLayout<AnyObject>.size {
            self = .bare(unsafeBitCast(value, to: AnyObject.self))
        } else {
            self = .boxed(GraphValue(value))
        }
    }

    /// What a lookup that finds this returns.
    var kept: KeptGraphInstance {
        switch self {
        case .bare(let object): .bare(object)
        case .boxed(let instance): .typed(instance)
        }
    }

    /// The instance in a box, as a ``ResolutionGraph`` keeps it.
    var boxed: GraphInstance {
        switch self {
        case .bare(let object): GraphObject(object)
        case .boxed(let instance): instance
        }
    }
}

/// A bare graph instance (see ``GraphItem``) in a box, for a ``ResolutionGraph``: found as
/// bare again.
final class GraphObject: GraphInstance {
    let instance: AnyObject

    init(_ instance: AnyObject) {
        self.instance = instance
    }

    override var object: AnyObject? { instance }
    override var kept: KeptGraphInstance { .bare(instance) }
}
