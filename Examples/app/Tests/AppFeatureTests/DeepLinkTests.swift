import AppFeature
import Depot
import DepotTesting
import Testing

/// A handler a test contributes, or registers in place of a feature's.
nonisolated struct StubLinks: DeepLinkHandler {
    let screen: String
    func screen(for path: String) -> String? { screen }
}

extension AppContainer {
    // The tests' own factory: safe in tests, as strict tests must be told.
    var stubLinks: Factory<any DeepLinkHandler> { self { StubLinks(screen: "stub") }.safeInTests }
}

@Suite(.app)
struct DeepLinkTests {
    @Test func eachFeatureOpensItsOwnLinks() {
        let app = AppContainer.shared
        #expect(app.screen(forDeepLink: "/profile/42") == "profile 42")
        #expect(app.screen(forDeepLink: "/settings") == "settings")
        #expect(app.screen(forDeepLink: "/unknown") == nil)
        #expect(app.deepLinkHandlers().count == 2)
    }

    @Test(.app { $0.profileLinks.register { StubLinks(screen: "mock profile") } })
    func aTestReplacesOneFeaturesHandler() {
        let app = AppContainer.shared
        #expect(app.screen(forDeepLink: "/profile/42") == "mock profile")
        #expect(
            app.deepLinkHandlers().map { $0.screen(for: "/settings") } == [
                "mock profile", "settings",
            ])
    }

    @Test func aTestAddsAHandlerFirstAndRemovesAFeatures() {
        let app = AppContainer.shared
        app.contribute(\.stubLinks, to: \.deepLinkHandlers, order: -1)
        #expect(app.screen(forDeepLink: "/settings") == "stub")
        app.removeContribution(\.stubLinks, from: \.deepLinkHandlers)
        app.removeContribution(\.settingsLinks, from: \.deepLinkHandlers)
        #expect(app.screen(forDeepLink: "/settings") == nil)
    }
}

/// A handler made on the main actor, as a view-backed one would be.
@MainActor final class MainActorLinks: DeepLinkHandler {
    nonisolated func screen(for path: String) -> String? {
        path.hasPrefix("/main") ? "main-actor screen" : nil
    }
}

extension AppContainer {
    @MainActor var mainActorLinks: Factory<any DeepLinkHandler> {
        self { MainActorLinks() }.safeInTests
    }
}

/// A `@MainActor` factory is contributed as any: its key path is applied where the collection
/// is resolved, here on the main actor.
@MainActor @Test(.app) func aMainActorFactoryIsContributedToo() {
    let app = AppContainer.shared
    app.contribute(\.mainActorLinks, to: \.deepLinkHandlers, order: 5)
    #expect(app.deepLinkHandlers().count == 3)
    #expect(app.screen(forDeepLink: "/main") == "main-actor screen")
}
