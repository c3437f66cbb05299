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
/// collisions, as it makes a `Dictionary`: each lookup compares the keys before it. What must
/// not come back is comparing them as `AnyHashable`, which looked the box's type up at run time
/// on each comparison: 364 times a `Dictionary`'s time here, where typed keys take 28 times.
/// Release builds only: a debug build's times say nothing of a release's.
@Suite struct ConstantHashParameterTests {
    /// CPU seconds of `body`, measured by the process's clock.
    func cpuSeconds(_ body: () -> Void) -> Double {
        let start = clock()
        body()
        return Double(clock() - start) / Double(CLOCKS_PER_SEC)
    }

    #if !DEBUG
        @Test func keysThatHashAlikeAreComparedAsTheirOwnType() {
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
                depotSeconds <= max(dictionarySeconds * 60, 0.05),
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
