import AppFeature
import Depot
import DepotTesting
import Testing

/// A fresh `AppContainer.shared`, and singletons of its own, for each test: the tests register
/// mocks and run in parallel. Strict: a test fails if it runs a live service that it did not
/// replace (the app declares its pure factories `.safeInTests`), or if a resolve escapes it. A
/// main-actor factory resolved off the main actor, which the app logs in debug builds, stops
/// the tests.
extension Trait where Self == ContainerTrait<AppContainer> {
    nonisolated static var app: Self {
        liveApp.strict
    }

    /// The same, not strict: for the tests that run the live services on purpose.
    nonisolated static var liveApp: Self {
        ContainerTrait(shared: AppContainer.$shared, container: strictContainer())
    }

    nonisolated private static func strictContainer() -> AppContainer {
        let container = AppContainer()
        container.manager.stopsOnIsolationBreach = true
        return container
    }
}

/// A main-actor mock, as this module's default isolation makes it, kept as a singleton.
final class MockSettings: SettingsStoring {
    var greetingStyle: String
    init(_ style: String) { greetingStyle = style }
    deinit { print("MockSettings released: \(greetingStyle)") }
}

/// Nonisolated and not `Sendable`: registered by a test and used on its task only.
nonisolated final class SpyAnalytics: Analytics {
    var events: [String] = []
    func track(_ event: String) { events.append(event) }
}

nonisolated struct StubAPI: ProfileAPI {
    let name: String
    func name(of userID: Int) async throws -> String { name }
}

nonisolated struct FailingAPI: ProfileAPI {
    struct Offline: Error, CustomStringConvertible {
        var description: String { "offline" }
    }
    func name(of userID: Int) async throws -> String { throw Offline() }
}

/// The live services, on purpose: a suite that is not strict.
@Suite(.liveApp)
struct LiveServicesTests {
    @Test func greetsWithTheLiveServices() async {
        let model = ProfileViewModel.make(userID: 7)
        await model.load()
        #expect(model.greeting == "Hello, User 7!")
    }
}

@Suite(.app)
struct ProfileViewModelTests {
    @Test func aForgottenMockFailsTheStrictTest() async throws {
        AppContainer.shared.analytics.register { SpyAnalytics() }
        // The view model's `@Injected` properties resolve when it is made.
        var made: ProfileViewModel?
        withKnownIssue {
            made = ProfileViewModel.make(userID: 3)
        } matching: { issue in
            issue.comments.map(\.rawValue).contains {
                $0.hasPrefix(
                    "Depot strict test aForgottenMockFailsTheStrictTest() ran the live factory "
                        + "AppContainer.api<any ProfileAPI>")
            }
        }
        let model = try #require(made)
        await model.load()
        #expect(model.greeting == "Hello, User 3!")
    }

    @Test func aMainActorSingletonMockAndANonSendableSpy() async {
        let spy = SpyAnalytics()
        AppContainer.shared.settings.register { MockSettings("Howdy") }
        AppContainer.shared.analytics.register { spy }
        AppContainer.shared.api.register { StubAPI(name: "Ada") }
        let model = ProfileViewModel.make(userID: 1)
        await model.load()
        #expect(model.greeting == "Howdy, Ada!")
        #expect(spy.events == ["profile 1 loaded"])
    }

    @Test(
        .app { @MainActor in
            $0.api.register { FailingAPI() }
            $0.analytics.register { SpyAnalytics() }
        })
    func aTraitCanRegisterTheMockBeforeTheTest() async {
        let model = ProfileViewModel.make(userID: 2)
        await model.load()
        #expect(model.error == "offline")
        #expect(model.greeting.isEmpty)
    }

    @Test func theAppsGraphIsValid() async {
        let report = await AppContainer.shared.validate(roots: [
            .factory(\.profileViewModel, 7), .factory(\.settings), .factory(\.analytics),
        ])
        #expect(report.isValid, "\(report)")
        #expect(report.graph.nodes.map(\.key).contains("api"))
        #expect(AppContainer.shared.manager.stopsOnIsolationBreach)
    }

    #if os(macOS) || os(Linux) || os(Windows)
        /// The same graph, validated in child processes (exit tests do not exist on iOS): a
        /// cycle there ends its child, not the test run, and the loop goes on from the root
        /// after it until every root is checked.
        @Test func theAppsGraphIsValidInChildProcesses() async throws {
            let report = try await ValidationReport.checkingEveryRoot { start in
                // The exit test's body is not on the main actor: closures isolated to it name
                // the main-actor factories, where Swift forms no key path to them.
                await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                    [start = start as Int] in
                    await ValidationReport.reportToParent(startingAt: start) {
                        await AppContainer.shared.validate(roots: [
                            .factory { @MainActor in $0.settings },
                            .factory { @MainActor in $0.analytics },
                        ])
                    }
                }
            }
            #expect(report.isValid, "\(report)")
            #expect(report.graph.nodes.map(\.key).sorted() == ["analytics", "settings"])
        }
    #endif

    @Test func eachTestHasItsOwnSingletons() {
        #expect(AppContainer.shared.settings().greetingStyle == "Hello")
        AppContainer.shared.settings().greetingStyle = "Hi"
        #expect(AppContainer.shared.settings().greetingStyle == "Hi")
    }
}
