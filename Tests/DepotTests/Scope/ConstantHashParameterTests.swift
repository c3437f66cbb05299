import Depot
import Foundation
import Testing

/// A parameter type whose every value hashes alike: a hostile, or careless, `Hashable`.
struct ConstantHash: Hashable, Sendable {
    let id: Int
    func hash(into hasher: inout Hasher) { hasher.combine(0) }
}

final class PerParameterContainer: SharedContainer {
    static let shared = PerParameterContainer()
    let manager = ContainerManager()
}

extension PerParameterContainer {
    var perParameter: ParameterFactory<ConstantHash, ConstantHash> {
        self { $0 }.cached.scopeOnParameters
    }
}

/// A parameter type whose values all hash alike makes every cache of it one long run of
/// collisions, as it makes a `Dictionary`: each lookup compares the keys before it. Depot keeps a
/// factory's instances per parameter in a `Dictionary` of the parameter's own type, compiled for
/// it where the factory is declared, so it compares them as that `Dictionary` does: within ten
/// times its time (about four here), where comparing them type-erased took 31 times, and as
/// `AnyHashable`s 364 times. Release builds only: a debug build's times say nothing of a
/// release's.
@Suite struct ConstantHashParameterTests {
    /// CPU seconds of `body`, on this thread: parallel tests' threads do not count.
    func cpuSeconds(_ body: () -> Void) -> Double {
        var start = timespec()
        var end = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start)
        body()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &end)
        return Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9
    }

    #if !DEBUG
        @Test func keysThatHashAlikeCostWhatTheyCostADictionary() {
            let count = 3_000
            let keys = (0..<count).map(ConstantHash.init)
            var dictionary: [ConstantHash: ConstantHash] = [:]
            let dictionarySeconds = cpuSeconds {
                for key in keys { dictionary[key] = key }
                for key in keys { precondition(dictionary[key] == key) }
            }
            let container = PerParameterContainer()
            let depotSeconds = cpuSeconds {
                for key in keys { _ = container.perParameter(key) }
                for key in keys { precondition(container.perParameter(key) == key) }
            }
            #expect(
                depotSeconds <= max(dictionarySeconds * 10, 0.01),
                "Depot \(depotSeconds) s, Dictionary \(dictionarySeconds) s")
        }
    #endif

    @Test func eachValueOfAConstantHashKeepsItsOwnInstance() {
        let container = PerParameterContainer()
        let keys = (0..<200).map(ConstantHash.init)
        for key in keys { #expect(container.perParameter(key) == key) }
        for key in keys { #expect(container.perParameter(key) == key) }
    }
}
