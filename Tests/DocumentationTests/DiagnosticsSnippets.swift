import Depot
import DepotTesting
import Testing

// The snippets of Diagnostics.md.

@Suite(.container)
struct DiagnosticsSnippets {
    @Test func shortLivedCaptivesAreReportedWhenAsked() {
        let lines = LinesLogged()
        Container.shared.manager.logger = { lines.append($0) }
        Container.shared.manager.reportsShortLivedCaptives = true
        _ = Container.shared.shortLivedCaptiveOwner()
        #expect(lines.all.count == (FactoryContext.current.isDebug ? 1 : 0))
    }
}

extension Container {
    var shortLivedCaptiveOwner: Factory<ConnectionLog> {
        self {
            _ = self.connectionLog.unique()
            return ConnectionLog()
        }.cached
    }
}

/// Lines a logger received.
final class LinesLogged: @unchecked Sendable {
    private let lines = Locked<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

@Suite(.container)
struct ValidatingAGraphSnippets {
    @Test func dependencyGraphIsValid() {
        let report = Container.shared.validate(\.imageStore, \.connectionLog)
        #expect(report.isValid, "\(report)")
    }

    @Test func asyncRootsAreValidated() async {
        let report = await Container.shared.validate(roots: [.async(\.pool)])
        #expect(report.isValid, "\(report)")
        #expect(report.graph.nodes.map(\.key).contains("pool"))
    }

    @Test func rootsOnSeveralActorsAreValidatedInOneCall() async {
        let report = await Container.shared.validate(roots: [
            .async(\.pool), .factory { @MainActor in $0.accountViewModel },
        ])
        #expect(report.isValid, "\(report)")
        #expect(report.unchecked.isEmpty)
    }

    @Test func dependencyGraphIsValidInAChildProcess() async throws {
        let child = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            ValidationReport.reportToParent {
                Container.shared.validate(\.imageStore, \.connectionLog)
            }
        }
        let report = try ValidationReport(exitTest: #require(child))
        #expect(report.isValid, "\(report)")
    }

    @Test func everyRootIsValidInChildProcesses() async throws {
        let report = try await ValidationReport.checkingEveryRoot { start in
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                [start = start as Int] in
                ValidationReport.reportToParent(startingAt: start) {
                    Container.shared.validate(\.imageStore, \.connectionLog)
                }
            }
        }
        #expect(report.isValid, "\(report)")
    }

    @Test func stopsOnIsolationBreachIsASetting() {
        Container.shared.manager.stopsOnIsolationBreach = true
        #expect(Container.shared.manager.stopsOnIsolationBreach)
    }
}
