import Depot

/// The app's container. In a module whose declarations are isolated to the main actor by
/// default, a container says `nonisolated`: it is shared by every isolation (`SharedContainer`
/// is `Sendable`), and its factories are read from any of them.
nonisolated public final class AppContainer: SharedContainer {
    /// Task-local, so that each test can have a fresh one (see the tests' `.app` trait).
    @TaskLocal public static var shared = AppContainer()
    public let manager = ContainerManager()
    public init() {}
}

extension AppContainer {
    /// Nonisolated services: made and used on any thread or task.
    public var api: Factory<any ProfileAPI> { self { LiveProfileAPI() }.singleton }
    public var formatter: Factory<NameFormatter> { self { NameFormatter() } }

    /// Main-actor factories: declared `@MainActor`, so that their closures may make main-actor
    /// types. Resolve them on the main actor (debug builds stop a resolve that is not).
    @MainActor public var settings: Factory<any SettingsStoring> {
        self { SettingsStore() }.singleton
    }
    @MainActor public var analytics: Factory<any Analytics> {
        self { PrintingAnalytics() }.cached
    }
    @MainActor public var profileViewModel: ParameterFactory<Int, ProfileViewModel> {
        self { ProfileViewModel(userID: $0) }
    }
}
