// How a path knows, at the same cost at every depth, whether a step is on it already. Up to
// `ResolutionFrame.walkedDepth` steps deep the path is walked, after a filter of its keys'
// bits; deeper, its steps are counted. A thread's frame counts its own path (`counted`); a path
// of immutable nodes that tasks share (an async resolution's, a validation's) is a `PathNode`,
// and the nodes of one line share a `PathIndex`, which a node enters when it is made and leaves
// when its resolve ends.

/// A node of a path that tasks share: ``AsyncResolution`` or `Validation.Node`.
protocol PathNode: AnyObject {
    var parent: Self? { get }
    /// How many steps from the outermost to this one: 1 for the outermost.
    var depth: Int { get }
    /// The bits of the keys on the path to this node (`ResolutionFrame.Resolution.bit(for:)`).
    var entered: UInt64 { get }
    /// This node's step as counts hold it: `nil` for a step whose parameter cannot be compared
    /// (on no cycle), or a validation's root. Read only where the filter of key bits does not
    /// tell the step apart, and past `walkedDepth`.
    var pathKey: PathKey? { get }
    /// The counts of this node's line, past `walkedDepth`.
    var index: PathIndex? { get }
}

extension PathNode {
    /// Whether `key` is on the path to this node: after the filter of the path's key bits, a
    /// look-up in its line's counts, or a walk.
    func contains(_ key: PathKey) -> Bool {
        guard entered & ResolutionFrame.Resolution.bit(for: key.step.key) != 0 else {
            return false
        }
        if let index, let isOnPath = index.contains(key, below: self) { return isOnPath }
        return sequence(first: self, next: \.parent).contains { $0.pathKey == key }
    }

    /// The index of this node's line, entered below `parent`, if it is deep enough for one;
    /// and whether the node's step is on `parent`'s path already: a cycle.
    func entering(below parent: Self?) -> (PathIndex?, isRepeat: Bool) {
        guard let parent else { return (nil, false) }
        guard depth > ResolutionFrame.walkedDepth else {
            // The step's key bit is on the path already, or the step is not.
            guard entered == parent.entered, let key = pathKey else { return (nil, false) }
            return (nil, parent.contains(key))
        }
        return PathIndex.entering(
            self, key: pathKey, below: parent, index: parent.index,
            above: { sequence(first: parent, next: \.parent).compactMap(\.pathKey) })
    }

    /// Leaves the line's index once this node's resolve has returned or thrown.
    func leave() {
        index?.leave(self, key: pathKey, to: parent)
    }
}

/// The steps of one line of nodes from the outermost, counted. Shared down the line while its
/// nodes are entered and left in order; a node entered below any other than the last one
/// entered (a branch that runs beside another, in a task of its own) makes its own from the
/// path above it. A count of 0 is a step that left.
final class PathIndex: Sendable {
    private let state: Locked<State>

    private struct State {
        /// The node entered last, whose line the counts are.
        var top: ObjectIdentifier
        var counted: [PathKey: Int]
    }

    private init(top: AnyObject, counted: [PathKey: Int]) {
        state = Locked(State(top: ObjectIdentifier(top), counted: counted))
    }

    /// The index of the line of `node`, whose step's key is `key`, entered below `parent`,
    /// whose index is `index` and whose path's keys are `above`; and whether the step was on
    /// the line already.
    static func entering(
        _ node: AnyObject, key: PathKey?, below parent: AnyObject, index: PathIndex?,
        above: () -> [PathKey]
    ) -> (PathIndex, isRepeat: Bool) {
        if let index, let isRepeat = index.push(key, of: node, below: parent) {
            return (index, isRepeat)
        }
        var counted = [PathKey: Int](counting: above())
        let isRepeat = key.map { counted.enter($0) } ?? false
        return (PathIndex(top: node, counted: counted), isRepeat)
    }

    /// Counts `key`, `node`'s, if `parent` was entered last: whether it was counted already;
    /// `nil` if another node was.
    private func push(_ key: PathKey?, of node: AnyObject, below parent: AnyObject) -> Bool? {
        state.withLock { state in
            guard state.top == ObjectIdentifier(parent) else { return nil }
            state.top = ObjectIdentifier(node)
            guard let key else { return false }
            return state.counted.enter(key)
        }
    }

    /// Whether `key` is on the line, if `parent` was entered last; `nil` if another node was.
    func contains(_ key: PathKey, below parent: AnyObject) -> Bool? {
        state.withLock { state in
            state.top == ObjectIdentifier(parent) ? state.counted[key, default: 0] > 0 : nil
        }
    }

    /// Takes `node`'s step, whose key is `key`, off the counts, if it was entered last: the
    /// line's last is `parent` again.
    func leave(_ node: AnyObject, key: PathKey?, to parent: AnyObject?) {
        state.withLock { state in
            guard state.top == ObjectIdentifier(node), let parent else { return }
            state.top = ObjectIdentifier(parent)
            if let key { state.counted.leave(key) }
        }
    }
}

extension [PathKey: Int] {
    /// The steps of a path, counted.
    init(counting keys: some Sequence<PathKey>) {
        self.init()
        for key in keys {
            _ = enter(key)
        }
    }

    /// Counts `key` once more: whether it was on the path already (a count above 0), in one
    /// look-up.
    mutating func enter(_ key: PathKey) -> Bool {
        func enter(_ count: inout Int) -> Bool {
            defer { count += 1 }
            return count > 0
        }
        return enter(&self[key, default: 0])
    }

    /// Counts `key` once less: a step on the path left it.
    mutating func leave(_ key: PathKey) {
        self[key]! -= 1
    }
}
