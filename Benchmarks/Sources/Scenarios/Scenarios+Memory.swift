import Depot
import Swinject

/// `container-init`, `memory-per-container` and `memory-per-registration`: time and bytes. The
/// bytes are what a pass of the loop leaves allocated (package-benchmark's "Malloc / free Δ
/// (bytes)": bytes asked of `malloc` less those freed), per object it keeps.
extension Scenarios {
    /// The most passes a bytes subject's loop runs: its objects are kept in storage reserved
    /// for that many (`DepotBenchmarks` runs them at most this often).
    public static let bytesPasses = 8

    static var memory: [Subject] {
        containerInit + memoryPerContainer + memoryPerRegistration
    }

    private static var containerInit: [Subject] {
        [
            Subject("container-init", "Depot") {
                { n in for _ in 0..<n { blackHole(Depot.Container()) } }
            },
            Subject("container-init", "Swinject") {
                { n in for _ in 0..<n { blackHole(SwinjectContainer()) } }
            },
            Subject("container-init", "baseline-mutex-dict", note: "MutexDictionary()") {
                { n in for _ in 0..<n { blackHole(MutexDictionary()) } }
            },
        ]
    }

    /// The bytes a new container keeps: a thousand of them per pass.
    private static var memoryPerContainer: [Subject] {
        let makers: [(String, @Sendable () -> AnyObject)] = [
            ("Depot", { Depot.Container() }),
            ("Swinject", { SwinjectContainer() }),
            ("baseline-mutex-dict", { MutexDictionary() }),
        ]
        return makers.map { name, make in
            Subject("memory-per-container", name, measure: .bytes(objects: 1_000, less: nil)) {
                let kept = KeptObjects(capacity: 1_000 * bytesPasses)
                return { n in for _ in 0..<n * 1_000 { kept.keep(make()) } }
            }
        }
    }

    /// The bytes a registration resolved into a kept instance adds to its container, not
    /// counting the instance itself: 10,000 of them per pass.
    private static var memoryPerRegistration: [Subject] {
        let count = 10_000
        let instance = Subject.id("memory-per-registration", "instance")
        let registered = "10,000 registered and resolved, less the instances"
        let fills: [(String, String?, String, @Sendable ([any Tag.Type]) -> AnyObject)] = [
            (
                "Depot", nil, registered,
                { types in
                    let container = Depot.Container()
                    for type in types { type.registerAndResolve(in: container) }
                    return container
                }
            ),
            (
                // What a factory costs that is only declared, as most are: no registration.
                "Depot", "declared", "10,000 declared factories resolved, none registered",
                { types in
                    let container = Depot.Container()
                    for type in types { type.resolve(in: container) }
                    return container
                }
            ),
            (
                "Swinject", nil, registered,
                { types in
                    let container = SwinjectContainer()
                    for type in types { type.registerAndResolve(in: container) }
                    return container
                }
            ),
            (
                "baseline-mutex-dict", nil, "10,000 inserted, less the instances",
                { types in
                    let dictionary = MutexDictionary()
                    for type in types { type.insert(in: dictionary) }
                    return dictionary
                }
            ),
        ]
        let subjects = fills.map { name, variant, note, fill in
            Subject(
                "memory-per-registration", name, variant: variant, note: note,
                measure: .bytes(objects: count, less: instance)
            ) {
                let types = warmTypes(count)
                let kept = KeptObjects(capacity: bytesPasses)
                return { n in for _ in 0..<n { kept.keep(fill(types)) } }
            }
        }
        return subjects + [
            Subject(
                "memory-per-registration", "instance", note: "the instance each one keeps",
                measure: .bytes(objects: count, less: nil)
            ) {
                let types = warmTypes(count)
                let kept = KeptObjects(capacity: count * bytesPasses)
                return { n in for _ in 0..<n * count { kept.keep(types[0].make()) } }
            }
        ]
    }

    /// `count` tag types, with their metadata made (it is made on first use) in every subject.
    private static func warmTypes(_ count: Int) -> [any Tag.Type] {
        let types = tags(count)
        let container = Depot.Container()
        let swinject = SwinjectContainer()
        let dictionary = MutexDictionary()
        for type in types {
            type.registerAndResolve(in: container)
            type.registerAndResolve(in: swinject)
            type.insert(in: dictionary)
        }
        return types
    }
}
