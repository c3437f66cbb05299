import Depot

/// A view model, isolated to the main actor by the module's default: `@Injected` resolves when
/// it is made, `@LazyInjected` on first use, both on the main actor.
public final class ProfileViewModel {
    @Injected(\AppContainer.api) private var api
    @Injected(\AppContainer.formatter) private var formatter
    @LazyInjected(\AppContainer.settings) private var settings
    @Injected(\AppContainer.analytics) private var analytics

    public let userID: Int
    public private(set) var greeting = ""
    public private(set) var error: String?

    public init(userID: Int) {
        self.userID = userID
    }

    public func load() async {
        do {
            let name = try await api.name(of: userID)
            greeting = formatter.greeting(for: name, style: settings.greetingStyle)
            error = nil
            analytics.track("profile \(userID) loaded")
        } catch {
            self.error = "\(error)"
        }
    }

    /// The screen that shows a profile makes its view model through the container.
    public static func make(userID: Int) -> ProfileViewModel {
        AppContainer.shared.profileViewModel(userID)
    }
}
