import Depot

/// Opens one feature's deep links: each feature contributes its own to
/// `AppContainer.deepLinkHandlers`, and no list of features is written anywhere.
nonisolated public protocol DeepLinkHandler: Sendable {
    /// The screen `path` opens, or `nil` if the link is not this feature's.
    func screen(for path: String) -> String?
}

nonisolated struct ProfileLinks: DeepLinkHandler {
    func screen(for path: String) -> String? {
        path.hasPrefix("/profile/") ? "profile \(path.dropFirst("/profile/".count))" : nil
    }
}

nonisolated struct SettingsLinks: DeepLinkHandler {
    func screen(for path: String) -> String? { path.hasPrefix("/settings") ? "settings" : nil }
}

extension AppContainer {
    /// The features' deep-link handlers, in the order they contributed.
    public var deepLinkHandlers: Factory<[any DeepLinkHandler]> { contributions() }
    // Routing, and nothing else: as safe in a test as in the app.
    public var profileLinks: Factory<any DeepLinkHandler> { self { ProfileLinks() }.safeInTests }
    public var settingsLinks: Factory<any DeepLinkHandler> {
        self { SettingsLinks() }.safeInTests
    }

    /// The screen a deep link opens: the first handler's that knows it.
    public func screen(forDeepLink path: String) -> String? {
        deepLinkHandlers().lazy.compactMap { $0.screen(for: path) }.first
    }
}

// Each feature contributes its handler before the container's first use. `nonisolated`: in a
// module isolated to the main actor by default, a conformance is isolated to it too, and
// Depot, which runs `autoRegister()` on whichever thread first uses the container, would not
// find one made off the main actor.
extension AppContainer: nonisolated AutoRegistering {
    public func autoRegister() {
        contribute(\.profileLinks, to: \.deepLinkHandlers)
        contribute(\.settingsLinks, to: \.deepLinkHandlers, order: 10)
    }
}
