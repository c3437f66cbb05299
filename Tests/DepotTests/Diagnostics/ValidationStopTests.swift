import Depot
import DepotTesting
import Foundation
import Testing

/// The report a validation in an exit test's child process handed back.
func childReport(_ child: ExitTest.Result?) throws -> ValidationReport {
    try ValidationReport(exitTest: #require(child))
}

/// What an exit test's child process wrote to standard error.
func standardError(_ child: ExitTest.Result?) -> String {
    child.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
}

/// Validations whose synchronous resolves meet a stop (a cycle, the depth limit), which ends
/// the process after the report: each runs in a child process, as the docs tell users to.
@Suite(.timeLimit(.minutes(2))) struct ValidationStopTests {
    @Test func threeIndependentProblemsAreReportedBeforeTheProcessEnds() async throws {
        let child = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            ValidationReport.reportToParent {
                let container = ValidatedContainer()
                container.manager.promiseTriggersError = true
                return container.validate(\.needsMissing, \.endlessRoot, \.cycleA)
            }
        }
        let report = try childReport(child)
        #expect(!report.isValid)
        #expect(report.errors.map(\.kind) == [.missingRegistration, .tooDeep], "\(report)")
        #expect(report.unchecked.last?.factory == "ValidatedContainer.cycleA<Part>")
        #expect(
            report.unchecked.last?.reason
                == "not reached: the validation ended the process at a problem before")
        // The text a user sees on standard error, before Swift's own message.
        let text = standardError(child)
        #expect(text.contains("Depot validation of ValidatedContainer: INVALID, 2 errors"))
        #expect(text.contains("the validation ended the process at this stop"))
        #expect(text.contains("past the limit of 256"))
    }

    @Test func aCycleIsReportedWithItsLoopOnceAndWhatItLeftUnchecked() async throws {
        let child = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            ValidationReport.reportToParent { ValidatedContainer().validate(\.stoppedEarly) }
        }
        let report = try childReport(child)
        let cycle = try #require(report.errors.first)
        #expect(cycle.kind == .cycle)
        #expect(
            cycle.message
                == "Depot: circular dependency: ValidatedContainer.cycleA<Part> -> "
                + "ValidatedContainer.cycleB<Part> -> ValidatedContainer.cycleA<Part>")
        #expect(
            cycle.path == [
                "ValidatedContainer.stoppedEarly<Part>", "ValidatedContainer.cycleA<Part>",
                "ValidatedContainer.cycleB<Part>", "ValidatedContainer.cycleA<Part>",
            ])
        #expect(report.unchecked.map(\.factory).contains("ValidatedContainer.stoppedEarly<Part>"))
        #expect(!report.graph.nodes.map(\.description).contains("ValidatedContainer.leaf<Part>"))
        // The stop names Depot's check, never the validation's file.
        #expect(!standardError(child).contains("Validation.swift"))
        #expect(standardError(child).contains("fix: Break the cycle"))
    }

    @Test func theCallersTaskLocalContainersApply() async throws {
        let child = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            ValidationReport.reportToParent {
                let container = TaskLocalValidatedContainer()
                // Only in the bound container does the leaf lead back to the root.
                container.sharedLeaf.register { Part("mock", [container.throughShared()]) }
                return TaskLocalValidatedContainer.$shared.withValue(container) {
                    container.validate(\.throughShared)
                }
            }
        }
        #expect(try childReport(child).errors.map(\.kind) == [.cycle])
    }

    @Test func aRegisteredFactoryWithACycleIsReported() async throws {
        let child = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            ValidationReport.reportToParent {
                let container = ValidatedContainer()
                container.leaf.register { Part("leaf", [container.cycleA()]) }
                return container.validate()
            }
        }
        let report = try childReport(child)
        #expect(report.errors.map(\.kind) == [.cycle])
        #expect(report.errors.first?.path.first == "ValidatedContainer.leaf<Part>")
    }

    @Test func aCycleThroughALazyIsReported() async throws {
        let child = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            ValidationReport.reportToParent { ValidatedContainer().validate(\.lazyLoop) }
        }
        #expect(try childReport(child).errors.map(\.kind) == [.cycle])
    }

    @Test func aParameterisedRootTakesItsParameter() async throws {
        let child = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await ValidationReport.reportToParent {
                await ValidatedContainer().validate(roots: [.factory(\.endless, 5)])
            }
        }
        let report = try childReport(child)
        #expect(report.errors.map(\.kind) == [.tooDeep])
        #expect(report.errors.first?.path.first == "ValidatedContainer.endless<Part>(5)")
        // The path of 257 steps reads as its ends, once; the unchecked list likewise.
        let text = "\(report)"
        #expect(text.contains("... 233 more ..."), "\(text)")
        #expect(text.count < 6_000, "\(text.count) characters")
    }

    @Test func aSyncCycleInsideAnAsyncFactoryIsReported() async throws {
        let child = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await ValidationReport.reportToParent {
                await ValidatedContainer().validate(roots: [.async(\.asyncSyncCycle)])
            }
        }
        #expect(try childReport(child).errors.map(\.kind) == [.cycle])
    }

    @Test func anIsolationBreachIsReportedAndNothingRunsOffItsActor() async throws {
        let child = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await ValidationReport.reportToParent {
                await ValidatedContainer().validate(roots: [.factory(\.onOtherActor)])
            }
        }
        let report = try childReport(child)
        let breach = try #require(report.errors.first)
        #expect(breach.kind == .isolationBreach, "\(report)")
        #expect(
            breach.path == [
                "ValidatedContainer.onOtherActor<Part>", "ValidatedContainer.onMain<Part>",
            ])
        #expect(breach.message.contains("is declared on MainActor"))
    }

    @Test func theReportReadsAsACIBlockAndRendersTheGraph() async throws {
        let child = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            ValidationReport.reportToParent {
                ValidatedContainer().validate(\.cachedKeepsUnique, \.stoppedEarly)
            }
        }
        let report = try childReport(child)
        let text = "\(report)"
        #expect(
            text.hasPrefix("Depot validation of ValidatedContainer: INVALID, 1 error, 1 warning"))
        #expect(text.contains("error[cycle] ValidatedContainer.stoppedEarly<Part> -> "))
        #expect(text.contains("  fix: Break the cycle"))
        #expect(text.contains("unchecked:"))
        #expect(report.dot().contains("color=red"))
        #expect(report.mermaid().contains(" problem"))
        #expect(report.testDescription == String(text.prefix { $0 != "\n" }))
    }

    @Test func aChildThatWroteNoReportThrowsWithItsOutput() async throws {
        let child = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            fatalError("no validation here")
        }
        #expect(throws: ValidationReport.ChildProcessError.self) { try childReport(child) }
    }
}

#if DEBUG
    // Debug builds check a factory's isolation; release builds do not.
    extension ValidationStopTests {
        @Test func aBreachOfACustomGlobalActorStopsWithDepotsMessage() async {
            let child = await #expect(
                processExitsWith: .failure, observing: [\.standardErrorContent]
            ) {
                let container = ValidatedContainer()
                container.manager.stopsOnIsolationBreach = true
                _ = await Task.detached { container.onOtherActor() }.value
            }
            let text = standardError(child)
            #expect(
                text.contains(
                    "Depot: checking that the resolve runs on ValidationActor, as "
                        + "stopsOnIsolationBreach asks; if the process stops now, it did not. Depot: "
                        + "ValidatedContainer.onOtherActor<Part> is declared on ValidationActor"),
                "\(text)")
        }
    }
#endif
