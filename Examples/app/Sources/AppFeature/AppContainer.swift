import Depot

// In a module whose declarations are isolated to the main actor by default, a container says
// `nonisolated`: it is shared by every isolation (`SharedContainer` is `Sendable`), and its
// factories are read from any of them. Its `shared` is task-local, so that each test can have
// a fresh one (see the tests' `.app` trait).
nonisolated public final class AppContainer: SharedContainer {
    @TaskLocal public static var shared = AppContainer()
    public let manager = ContainerManager()
    public init() {}
}

extension AppContainer {
    public var api: Factory<any ProfileAPI> { self { LiveProfileAPI() }.singleton }
    @MainActor public var profileViewModel: ParameterFactory<Int, ProfileViewModel> {
        self { ProfileViewModel(userID: $0) }
    }
}

// Nonisolated services are made and used on any thread or task. Main-actor factories are
// declared `@MainActor`, so that their closures may make main-actor types; they are resolved on
// the main actor (debug builds log a resolve that is not; the tests' trait makes it stop).
extension AppContainer {
    // Pure, or kept in memory: as safe in a test as in the app, so strict tests run them.
    public var formatter: Factory<NameFormatter> { self { NameFormatter() }.safeInTests }
    @MainActor public var settings: Factory<any SettingsStoring> {
        self { SettingsStore() }.safeInTests.singleton
    }
    @MainActor public var analytics: Factory<any Analytics> {
        self { PrintingAnalytics() }.cached
    }
}
