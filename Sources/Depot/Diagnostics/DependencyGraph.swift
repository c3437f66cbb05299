/// The dependencies a container observed while resolving, recorded while
/// ``ContainerManager/isRecordingDependencies`` is on: which factory resolved which, with scopes.
public struct DependencyGraph: Sendable, Equatable, Codable {
    /// A factory: its container type, key, declared type, and the scope it was last resolved
    /// in (`nil` when it was only seen resolving another factory, from a container that does
    /// not record).
    public struct Node: Hashable, Sendable, Codable, CustomStringConvertible {
        /// The container's type name: `Container`.
        public let container: String
        /// The factory's key, the name of its property: `api`.
        public let key: String
        /// The type the factory declares: `API`.
        public let type: String
        /// The name of the scope the factory was last resolved in (`cached`, `unique`...), or
        /// `nil` when it was only seen resolving another factory, from a container that does
        /// not record.
        public var scope: String?

        /// `Container.api<API>`.
        public var description: String { "\(container).\(key)<\(type)>" }
    }

    /// `from`'s closure resolved `to`.
    public struct Edge: Hashable, Sendable, Codable {
        /// The factory whose closure made the resolve, as ``Node/description`` names it.
        public let from: String
        /// The factory it resolved, as ``Node/description`` names it.
        public let to: String
    }

    /// The factories seen, by description.
    var nodesByName: [String: Node] = [:]
    /// The dependencies seen.
    var edgeSet: Set<Edge> = []
    /// The factories drawn as problems (a validation's), by description.
    var marked: Set<String> = []

    /// The factories seen, ordered by description.
    public var nodes: [Node] { nodesByName.values.sorted { $0.description < $1.description } }

    /// The dependencies seen, from the resolving factory's description to the resolved one's,
    /// ordered.
    public var edges: [Edge] {
        edgeSet.sorted { ($0.from, $0.to) < ($1.from, $1.to) }
    }

    init() {}

    /// Adds `step`, resolved in `scope`, and the edge from `parent` if it has one.
    mutating func add(_ step: ResolutionStep, scope: Scope, resolvedBy parent: ResolutionStep?) {
        add(Node(step), scope: scope, resolvedBy: parent.map(Node.init))
    }

    /// Adds `node`, resolved in `scope`, and the edge from `parent` if it has one.
    mutating func add(_ node: Node, scope: Scope, resolvedBy parent: Node?) {
        let name = node.description
        nodesByName[name, default: node].scope = scope.description
        if let parent {
            let from = parent.description
            if nodesByName[from] == nil { nodesByName[from] = parent }
            edgeSet.insert(Edge(from: from, to: name))
        }
    }

    /// The graph in Graphviz's language: a `digraph` whose nodes are labelled with their
    /// factory and scope.
    ///
    /// ```
    /// digraph Depot {
    ///   "Container.api<API>" [label="Container.api<API>\ncached"];
    ///   "Container.model<Model>" -> "Container.api<API>";
    /// }
    /// ```
    public func dot() -> String {
        // A key or a custom scope's name may hold any character: each that would end or break
        // the string is escaped, and a line break becomes DOT's "\n".
        func quoted(_ text: String) -> String { "\"" + Self.escaped(text, Self.dotEscapes) + "\"" }
        var lines = ["digraph Depot {", "  rankdir=LR;", "  node [shape=box];"]
        for node in nodes {
            let label = quoted(node.description + (node.scope.map { "\n" + $0 } ?? ""))
            let style = marked.contains(node.description) ? ", color=red, penwidth=2" : ""
            lines.append("  \(quoted(node.description)) [label=\(label)\(style)];")
        }
        lines += edges.map { "  \(quoted($0.from)) -> \(quoted($0.to));" }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The graph as a Mermaid flowchart (`graph LR` with `-->` edges), each node labelled with
    /// its factory and scope.
    ///
    /// ```
    /// graph LR
    ///   n0["Container.api#lt;API#gt; · cached"]
    ///   n1["Container.model#lt;Model#gt; · unique"]
    ///   n1 --> n0
    /// ```
    public func mermaid() -> String {
        let ordered = nodes
        var ids: [String: String] = [:]
        var lines = ["graph LR"]
        for (index, node) in ordered.enumerated() {
            let id = "n\(index)"
            ids[node.description] = id
            let label = node.description + (node.scope.map { " · " + $0 } ?? "")
            lines.append("  \(id)[\"\(Self.escaped(label, Self.mermaidEscapes))\"]")
        }
        lines += edges.map { "  \(ids[$0.from]!) --> \(ids[$0.to]!)" }
        let problems = ordered.filter { marked.contains($0.description) }
        if !problems.isEmpty {
            lines.append("  classDef problem stroke:#d00,stroke-width:2px")
            lines.append(
                "  class \(problems.map { ids[$0.description]! }.joined(separator: ",")) problem")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension DependencyGraph {
    /// What a DOT string writes in place of a character that would end or break it.
    static let dotEscapes: [Character: String] = ["\"": "\\\"", "\\": "\\\\", "\n": "\\n"]

    /// What a Mermaid label writes in place of a character that would end it, read as markup
    /// or entity, or break its line.
    static let mermaidEscapes: [Character: String] = [
        "\"": "#quot;", "<": "#lt;", ">": "#gt;", "#": "#35;", "\n": " ",
    ]

    /// `text` with each character that `escapes` names written as it says.
    static func escaped(_ text: String, _ escapes: [Character: String]) -> String {
        text.map { escapes[$0] ?? String($0) }.joined()
    }
}

extension DependencyGraph.Node {
    init(_ step: ResolutionStep) {
        (container, key, type) = (
            "\(step.containerType)", step.key.literal, step.key.typeName
        )
        scope = nil
    }
}
