import Depot

/// `constant-hash-3k`: 3,000 parameter values whose type hashes them all alike, each resolved
/// twice through a factory that keeps one instance per parameter, against a `Dictionary` with
/// the same keys.
extension Scenarios {
    static var constantHash: [Subject] {
        let keys = (0..<3_000).map(ConstantHash.init)
        return [
            Subject("constant-hash-3k", "Depot", note: "a new container each pass") {
                { n in
                    for _ in 0..<n {
                        let container = Depot.Container()
                        for key in keys { blackHole(container.perConstantHash(key)) }
                        for key in keys { blackHole(container.perConstantHash(key)) }
                    }
                }
            },
            Subject("constant-hash-3k", "baseline-dictionary", note: "insert, then look up") {
                { n in
                    for _ in 0..<n {
                        var dictionary: [ConstantHash: ConstantHash] = [:]
                        for key in keys { dictionary[key] = key }
                        for key in keys { blackHole(dictionary[key]) }
                    }
                }
            },
        ]
    }
}

/// A parameter type whose every value hashes alike: a hostile, or careless, `Hashable`.
struct ConstantHash: Hashable, Sendable {
    let id: Int

    func hash(into hasher: inout Hasher) { hasher.combine(0) }
}

extension Depot.Container {
    var perConstantHash: ParameterFactory<ConstantHash, ConstantHash> {
        self { $0 }.cached.scopeOnParameters
    }
}
