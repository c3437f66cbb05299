// How a validation's node knows, at the same cost at every depth, whether its step is on the
// path already (PathIndex.swift).

extension Validation.Node {
    /// Whether the step of this node, below `parent`, is on `parent`'s path already, and the
    /// index of its line, if it is deep enough for one.
    static func entering(_ node: Validation.Node, below parent: Validation.Node?)
        -> (PathIndex?, isRepeat: Bool)
    {
        guard let step = node.step, let parent else { return (nil, false) }
        if node.depth > ResolutionFrame.walkedDepth {
            return PathIndex.entering(
                node, key: node.pathKey, below: parent, index: parent.index,
                above: { parent.lineage.compactMap(\.pathKey) })
        }
        guard parent.entered & ResolutionFrame.Resolution.bit(for: step.key) != 0,
            let key = node.pathKey
        else { return (nil, false) }
        return (nil, sequence(first: parent, next: \.parent).contains { $0.pathKey == key })
    }

    /// Leaves the line's index once this node's resolve has returned or thrown.
    func leave() {
        index?.leave(self, key: pathKey, to: parent)
    }
}
