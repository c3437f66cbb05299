import BenchmarkSupport
import Depot
import Swinject

/// `container-init` and `memory-per-registration`: time and bytes.
extension Run {
    func memoryScenarios() {
        if includes("container-init") { containerInit() }
        if includes("memory-per-registration") { memoryPerRegistration() }
    }

    private func containerInit() {
        time("container-init", "Depot") { n in
            for _ in 0..<n { blackHole(Depot.Container()) }
        }
        addBytes(Self.bytes(of: 1_000) { Depot.Container() })
        time("container-init", "Swinject") { n in
            for _ in 0..<n { blackHole(SwinjectContainer()) }
        }
        addBytes(Self.bytes(of: 1_000) { SwinjectContainer() })
        time("container-init", "baseline-mutex-dict", note: "MutexDictionary()") { n in
            for _ in 0..<n { blackHole(MutexDictionary()) }
        }
        addBytes(Self.bytes(of: 1_000) { MutexDictionary() })
    }

    /// The bytes a registration resolved into a kept instance adds to its container, not
    /// counting the instance itself: 10,000 of them, averaged.
    private func memoryPerRegistration() {
        let count = 10_000
        let types = tags(count)
        // Type metadata is made on first use: make it all before measuring.
        let warm = Depot.Container()
        let warmSwinject = SwinjectContainer()
        let warmDictionary = MutexDictionary()
        for type in types {
            type.registerAndResolve(in: warm)
            type.registerAndResolve(in: warmSwinject)
            type.insert(in: warmDictionary)
        }
        let instance = Self.bytes(of: count) { types[0].make() }
        let registered = "10,000 registered and resolved, less the instances"
        let measures: [(String, String?, String, () -> AnyObject)] = [
            (
                "Depot", nil, registered,
                {
                    let container = Depot.Container()
                    for type in types { type.registerAndResolve(in: container) }
                    return container
                }
            ),
            (
                // What a factory costs that is only declared, as most are: no registration.
                "Depot", "declared", "10,000 declared factories resolved, none registered",
                {
                    let container = Depot.Container()
                    for type in types { type.resolve(in: container) }
                    return container
                }
            ),
            (
                "Swinject", nil, registered,
                {
                    let container = SwinjectContainer()
                    for type in types { type.registerAndResolve(in: container) }
                    return container
                }
            ),
            (
                "baseline-mutex-dict", nil, "10,000 inserted, less the instances",
                {
                    let dictionary = MutexDictionary()
                    for type in types { type.insert(in: dictionary) }
                    return dictionary
                }
            ),
        ]
        for (subject, variant, note, fill) in measures {
            let before = allocatedBytes()
            let filled = fill()
            let bytes = Double(allocatedBytes() - before) / Double(count) - instance
            blackHole(filled)
            var measurement = Measurement(
                scenario: "memory-per-registration", subject: subject, variant: variant,
                nsPerOp: 0, spread: 0)
            measurement.bytes = bytes
            measurement.note = note
            record(measurement)
        }
    }

    /// The bytes that each of `count` objects made by `make` keeps allocated.
    private static func bytes(of count: Int, _ make: () -> AnyObject) -> Double {
        var kept: [AnyObject] = []
        kept.reserveCapacity(count)
        let before = allocatedBytes()
        for _ in 0..<count { kept.append(make()) }
        let bytes = Double(allocatedBytes() - before) / Double(count)
        blackHole(kept)
        return bytes
    }
}
