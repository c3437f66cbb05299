/// Fetches profiles: a nonisolated service, used from the view models' tasks.
nonisolated public protocol ProfileAPI: Sendable {
    func name(of userID: Int) async throws -> String
}

nonisolated struct LiveProfileAPI: ProfileAPI {
    func name(of userID: Int) async throws -> String { "User \(userID)" }
}

/// Nonisolated, like the services: usable from any isolation.
nonisolated public struct NameFormatter: Sendable {
    public init() {}
    public func greeting(for name: String, style: String) -> String { "\(style), \(name)!" }
}

/// The user's settings, kept on the main actor (this module's default isolation).
public protocol SettingsStoring: AnyObject {
    var greetingStyle: String { get set }
}

final class SettingsStore: SettingsStoring {
    var greetingStyle = "Hello"
}

/// Records what the user does. Nonisolated and not `Sendable`: each view model uses its own on
/// the main actor.
nonisolated public protocol Analytics: AnyObject {
    func track(_ event: String)
}

nonisolated final class PrintingAnalytics: Analytics {
    func track(_ event: String) { print("analytics: \(event)") }
}
