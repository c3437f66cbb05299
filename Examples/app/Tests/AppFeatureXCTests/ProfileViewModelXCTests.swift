import AppFeature
import Depot
import DepotTesting
import XCTest

/// An XCTest case in a module isolated to the main actor by default. XCTest on Linux finds test
/// methods from nonisolated code, so the case says `nonisolated`; XCTest runs each method on the
/// main thread, where `MainActor.assumeIsolated` reaches the main actor's types.
/// Strict, as the Swift Testing tests' trait is: a live service the test runs, or a resolve
/// after the test ended, fails the test through `XCTFail`.
nonisolated final class ProfileViewModelXCTests: XCTestCase {
    private var strict: StrictTest?

    override func setUp() {
        super.setUp()
        // Saves the registrations, so that each test's mocks end with it.
        AppContainer.shared.manager.push()
        let strict = StrictTest(name: name) { XCTFail($0) }
        strict.watch(AppContainer.shared)
        self.strict = strict
    }

    override func tearDown() {
        strict?.end()
        // Drops the test's registrations and the instances made from them, on this thread.
        AppContainer.shared.manager.pop()
        super.tearDown()
    }

    func testAMockRegisteredInATestIsWhatTheViewModelUses() {
        MainActor.assumeIsolated {
            AppContainer.shared.settings.register { XCTestSettings(style: "Hey") }
            XCTAssertEqual(AppContainer.shared.settings().greetingStyle, "Hey")
        }
    }

    func testPopRestoresTheRegistrationsBeforeTheTest() {
        MainActor.assumeIsolated {
            XCTAssertEqual(AppContainer.shared.settings().greetingStyle, "Hello")
        }
    }
}

/// A main-actor mock (the module's default isolation).
final class XCTestSettings: SettingsStoring {
    var greetingStyle: String
    init(style: String) { greetingStyle = style }
}
