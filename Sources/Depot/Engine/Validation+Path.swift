// How a validation knows, at the same cost at every depth, whether a step is on its node's
// path already. Up to `ResolutionFrame.walkedDepth` factories deep it walks the path, after a
// filter of the path's key bits; deeper, the nodes of one line share a `PathIndex`, the path's
// steps counted, which a node enters and leaves as it resolves.

extension Validation {
    /// The steps of one line of nodes from the root, counted. Shared down the line while its
    /// nodes are entered and left in order; a node entered below any other than the last one
    /// entered (a branch that runs beside another, in a task of its own) makes its own.
    final class PathIndex: Sendable {
        private let state: Locked<State>

        private struct State {
            /// The node entered last, whose line the counts are.
            var top: ObjectIdentifier
            var counted: [PathKey: Int]
        }

        private init(top: Node, counted: [PathKey: Int]) {
            state = Locked(State(top: ObjectIdentifier(top), counted: counted))
        }

        /// The index of `node`'s line, entered below `parent`, and whether its step was on the
        /// line already.
        static func entering(_ node: Node, below parent: Node) -> (PathIndex, isRepeat: Bool) {
            let key = node.pathKey
            if let index = parent.index,
                let isRepeat = index.push(key, of: node, below: parent)
            {
                return (index, isRepeat)
            }
            let above = parent.lineage.compactMap(\.pathKey)
            let counted = Dictionary(above.map { ($0, 1) }, uniquingKeysWith: +)
            let isRepeat = key.map { counted[$0] != nil } ?? false
            let made = PathIndex(top: node, counted: counted)
            if let key { made.state.withLock { $0.counted[key, default: 0] += 1 } }
            return (made, isRepeat)
        }

        /// Counts `key`, `node`'s, if `parent` was entered last: whether it was counted
        /// already; `nil` if another node was.
        private func push(_ key: PathKey?, of node: Node, below parent: Node) -> Bool? {
            state.withLock { state in
                guard state.top == ObjectIdentifier(parent) else { return nil }
                state.top = ObjectIdentifier(node)
                guard let key else { return false }
                defer { state.counted[key, default: 0] += 1 }
                return state.counted[key] != nil
            }
        }

        /// Takes `node`'s step off the counts, if it was entered last.
        func leave(_ node: Node) {
            state.withLock { state in
                guard state.top == ObjectIdentifier(node), let parent = node.parent else { return }
                state.top = ObjectIdentifier(parent)
                guard let key = node.pathKey else { return }
                state.counted[key]! -= 1
                if state.counted[key] == 0 { state.counted[key] = nil }
            }
        }
    }
}

extension Validation.Node {
    /// Whether the step of this node, below `parent`, is on `parent`'s path already, and the
    /// index of its line, if it is deep enough for one.
    static func entering(_ node: Validation.Node, below parent: Validation.Node?)
        -> (Validation.PathIndex?, isRepeat: Bool)
    {
        guard let step = node.step, let parent,
            parent.entered & ResolutionFrame.Resolution.bit(for: step.key) != 0
                || node.depth > ResolutionFrame.walkedDepth
        else { return (nil, false) }
        guard node.depth > ResolutionFrame.walkedDepth else {
            guard let key = node.pathKey else { return (nil, false) }
            let isRepeat = sequence(first: parent, next: \.parent).contains { $0.pathKey == key }
            return (nil, isRepeat)
        }
        return Validation.PathIndex.entering(node, below: parent)
    }

    /// Leaves the line's index once this node's resolve has returned or thrown.
    func leave() {
        index?.leave(self)
    }
}
