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
