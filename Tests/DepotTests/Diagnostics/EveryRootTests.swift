import Depot
import DepotTesting
import Foundation
import Testing

// DepotTesting's every-root loop: an exit test of the user's, run again after each root whose
// synchronous stop ended its child process, until every root is checked.

struct Offline: Error {}

extension ValidatedContainer {
    /// A factory that ends the process on its own: no report comes back from its child.
    var endsTheProcess: Factory<Part> { self { fatalError("the card reader is not plugged in") } }
}

extension Container {
    var everyRootCycleA: Factory<Part> { self { Part("a", [self.everyRootCycleB()]) } }
    var everyRootCycleB: Factory<Part> { self { Part("b", [self.everyRootCycleA()]) } }
    var everyRootThrows: AsyncFactory<Part> { self { throw Offline() } }
    var everyRootLeaf: Factory<Part> { self { Part("leaf") } }
}

@Suite(.timeLimit(.minutes(2))) struct EveryRootTests {
    @Test func everyRootIsCheckedThoughStopsEndTheChild() async throws {
        let report = try await ValidationReport.checkingEveryRoot { start in
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                [start = start as Int] in
                ValidationReport.reportToParent(startingAt: start) {
                    let container = ValidatedContainer()
                    container.manager.promiseTriggersError = true
                    return container.validate(
                        \.cycleA, \.needsMissing, \.endlessRoot, \.stoppedEarly, \.app)
                }
            }
        }
        #expect(
            report.errors.map(\.kind) == [.cycle, .missingRegistration, .tooDeep, .cycle],
            "\(report)")
        // The loop through cycleA is found twice, on two paths; each once.
        #expect(report.errors.last?.path.first == "ValidatedContainer.stoppedEarly<Part>")
        #expect(!report.unchecked.contains { $0.reason.hasPrefix("not reached") }, "\(report)")
        #expect(report.graph.nodes.map(\.key).contains("settings"))
    }

    @Test func aLaterRootsThrowingAsyncFactoryIsReportedAfterACycle() async throws {
        let report = try await ValidationReport.checkingEveryRoot { start in
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                [start = start as Int] in
                await ValidationReport.reportToParent(startingAt: start) {
                    await Container().validate(roots: [
                        .factory(\.everyRootCycleA), .async(\.everyRootThrows),
                        .factory(\.everyRootLeaf),
                    ])
                }
            }
        }
        #expect(report.errors.map(\.kind) == [.cycle, .factoryThrew], "\(report)")
        #expect(report.graph.nodes.map(\.key).contains("everyRootLeaf"))
    }

    @Test func aChildThatEndsWithoutAReportIsAProblemAtItsRoot() async throws {
        let report = try await ValidationReport.checkingEveryRoot { start in
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                [start = start as Int] in
                ValidationReport.reportToParent(startingAt: start) {
                    ValidatedContainer().validate(\.cycleA, \.endsTheProcess, \.app)
                }
            }
        }
        #expect(report.errors.map(\.kind) == [.cycle, .childProcessEnded], "\(report)")
        let ended = try #require(report.errors.last)
        #expect(ended.path == ["ValidatedContainer.endsTheProcess<Part>"])
        #expect(ended.message.contains("the card reader is not plugged in"))
        #expect(report.graph.nodes.map(\.key).contains("settings"))
    }

    @Test func aValidGraphTakesOneChild() async throws {
        let starts = Locked<[Int]>([])
        let report = try await ValidationReport.checkingEveryRoot { start in
            starts.withLock { $0.append(start) }
            return await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                [start = start as Int] in
                ValidationReport.reportToParent(startingAt: start) {
                    ValidatedContainer().validate(\.app, \.service)
                }
            }
        }
        #expect(report.isValid, "\(report)")
        #expect(starts.withLock { $0 } == [0])
    }
}
