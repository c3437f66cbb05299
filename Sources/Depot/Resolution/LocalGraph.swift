/// The graph-scoped instances of the resolution running on one thread while nothing shares its
/// graph (see ``ResolutionFrame``): the thread's alone, so kept without a lock.
///
/// A resolution keeps none or a handful, so they are found by comparing keys in order, which
/// costs less than hashing one; past `scanLimit` instances a dictionary takes over, so that a
/// graph with hundreds of them is not searched in quadratic time.
struct LocalGraph {
    private struct Entry {
        let key: InstanceKey
        let instance: GraphInstance
    }

    /// The most instances kept in `entries`.
    private static let scanLimit = 16

    private var entries: [Entry] = []
    /// Every instance, once there were more than `scanLimit`; `entries` is empty then.
    private var overflow: [InstanceKey: GraphInstance] = [:]

    var isEmpty: Bool { entries.isEmpty && overflow.isEmpty }

    /// The instance kept for `key`, if any; setting one replaces what was kept for it.
    subscript(key: InstanceKey) -> GraphInstance? {
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

    /// Every instance with its key.
    var all: [InstanceKey: GraphInstance] {
        guard overflow.isEmpty else { return overflow }
        var all: [InstanceKey: GraphInstance] = [:]
        for entry in entries { all[entry.key] = entry.instance }
        return all
    }

    /// Empties the graph that ended, keeping room for the next resolution on the thread (the
    /// dictionary's only if it was not unusually large).
    mutating func removeAllForNextGraph() {
        entries.removeAll(keepingCapacity: true)
        if !overflow.isEmpty { overflow.removeAllForNextGraph() }
    }
}
