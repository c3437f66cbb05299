import Depot

// validate-1000: a tree ten deep of 1,023 factory resolutions (a binary tree; node i resolves
// nodes 2i+1 and 2i+2), in mixed scopes: each node is unique, cached, shared or graph-scoped by
// its index. Validating the root against resolving it once in a new container.
final class TreeNode: Sendable {
    let children: [TreeNode]
    init(_ children: [TreeNode]) { self.children = children }
}

extension Depot.Container {
    static let treeSize = 1_023

    /// Node `index` and, below it, its subtree.
    func treeNode(_ index: Int) -> TreeNode {
        switch index % 4 {
        case 0: uniqueTreeNode(index)
        case 1: cachedTreeNode(index)
        case 2: sharedTreeNode(index)
        default: graphTreeNode(index)
        }
    }

    func treeChildren(_ index: Int) -> [TreeNode] {
        [2 * index + 1, 2 * index + 2].filter { $0 < Self.treeSize }.map(treeNode)
    }

    var uniqueTreeNode: ParameterFactory<Int, TreeNode> { self { TreeNode(self.treeChildren($0)) } }
    var cachedTreeNode: ParameterFactory<Int, TreeNode> {
        self { TreeNode(self.treeChildren($0)) }.cached.scopeOnParameters
    }
    var sharedTreeNode: ParameterFactory<Int, TreeNode> {
        self { TreeNode(self.treeChildren($0)) }.shared.scopeOnParameters
    }
    var graphTreeNode: ParameterFactory<Int, TreeNode> {
        self { TreeNode(self.treeChildren($0)) }.graph.scopeOnParameters
    }
    var treeRoot: Factory<TreeNode> { self { self.treeNode(0) } }
}

extension Scenarios {
    static var validation: [Subject] {
        [
            Subject("validate-1000", "Depot resolve", note: "the root resolved once, new container")
            {
                { n in for _ in 0..<n { blackHole(Depot.Container().treeRoot()) } }
            },
            Subject(
                "validate-1000", "Depot validate", note: "validate(\\.treeRoot), new container"
            ) {
                let report = Depot.Container().validate(\.treeRoot)
                precondition(report.isValid && report.graph.nodes.count == 5, "\(report)")
                return { n in
                    for _ in 0..<n { blackHole(Depot.Container().validate(\.treeRoot).problems) }
                }
            },
        ]
    }
}
