import Depot
import Foundation
import Hummingbird
import NotesRoutes
import NotesServer
import StatsRoutes
import StoreTiming

// The modules this service is made of, each adding its own routes before the container's
// first use.
extension Container: @retroactive AutoRegistering {
    public func autoRegister() {
        registerNotesRoutes()
        registerStatsRoutes()
        registerStoreTiming()
    }
}

// Serves the notes API on 127.0.0.1:8080 (PORT and DATABASE override); Ctrl-C stops it
// gracefully and closes the database.
let environment = ProcessInfo.processInfo.environment
if let path = environment["DATABASE"] {
    Container.shared.databasePath.register { path }
}
let port = environment["PORT"].flatMap { Int($0) } ?? 8080
let stats = Container.shared.serverStats()
let app = try await buildApplication(port: port)
try await app.runService()
print(
    "stopped: \(stats.current.unitsFinished) requests torn down, database closed: \(stats.current.databaseCloses == 1)"
)
