import Depot

// deep-chain-500, deep-chain-2000: one resolve of a parameterised factory that resolves
// itself with the next parameter, 500 or 2,000 levels deep. Every step has the same key, so
// the cycle check's filter finds each on the path and looks it up: per level, both counts
// must be within 10% of each other (Benchmarks/instruction-counts), a check that costs the
// same at every depth. Counted by callgrind only, not by package-benchmark.

extension Depot.Container {
    /// `n` levels below this one: `deepLevel(n - 1)` down to 0.
    var deepLevel: ParameterFactory<Int, Int> { self { $0 == 0 ? 0 : self.deepLevel($0 - 1) + 1 } }
}

extension Scenarios {
    /// The scenarios only `instruction-counts` measures.
    public static var counted: [Subject] {
        [500, 2_000].map { depth in
            Subject("deep-chain-\(depth)", "Depot", note: "one resolve \(depth) levels deep") {
                ContainerManager.maximumResolutionDepth = max(
                    ContainerManager.maximumResolutionDepth, depth + 1)
                let container = Depot.Container()
                precondition(container.deepLevel(depth) == depth)
                return { n in for _ in 0..<n { blackHole(container.deepLevel(depth)) } }
            }
        }
    }
}
