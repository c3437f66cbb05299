import Foundation
import Testing

/// The runner of the crash helper, which the cycle and misuse tests rely on to stop a helper
/// that hangs.
@Suite(.timeLimit(.minutes(1))) struct CrashHelperTests {
    @Test func aHelperThatIgnoresSIGTERMIsKilled() throws {
        let run = try runCrashHelper("ignores-sigterm", limit: 1)
        #expect(run.output.contains("ignoring SIGTERM"))
        #expect(run.status == SIGKILL)
    }
}
