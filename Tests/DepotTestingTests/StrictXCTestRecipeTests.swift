@_spi(Testing) import Depot
import DepotTesting
import XCTest

// The XCTest recipe of `StrictTest`, as its documentation shows it, on the process's own
// `Container.shared`: XCTest runs these one at a time, apart from Swift Testing's tests.

extension Container {
    var recipeAPI: Factory<String> { self { "live recipe API" } }
    var recipeModel: Factory<String> { self { "model of " + self.recipeAPI() } }
}

final class StrictRecipeTests: XCTestCase {
    private var strict: StrictTest!

    override func setUp() {
        Container.shared.manager.push()
        Container.shared.recipeAPI.register { "mock recipe API" }
        strict = StrictTest(name: name) { XCTFail($0) }
        strict.watch(Container.shared)
    }

    override func tearDown() {
        strict.end()
        Container.shared.manager.pop()
    }

    func testAMockedGraphReportsNothing() {
        XCTAssertEqual(Container.shared.recipeModel(), "model of mock recipe API")
    }

    func testTheRecipeLeavesNothingBehindForALaterPlainTest() {
        // What a later class that mocks with push() and pop() does, after this test's end.
        tearDown()
        XCTAssertNil(Container.shared.manager.watcher)
        Container.shared.manager.push()
        Container.shared.recipeAPI.register { "another mock" }
        XCTAssertEqual(Container.shared.recipeModel(), "model of another mock")
        Container.shared.manager.pop()
        XCTAssertEqual(Container.shared.recipeModel(), "model of live recipe API")
        setUp()
    }

    func testAForgottenMockIsReportedThroughTheTestsReport() {
        let container = Container()
        let reported = expectation(description: "reported")
        let strict = StrictTest(name: name) { message in
            XCTAssertTrue(message.contains("ran the live factory Container.recipeAPI<String>"))
            reported.fulfill()
        }
        strict.watch(container)
        defer { strict.end() }
        XCTAssertEqual(container.recipeModel(), "model of live recipe API")
        wait(for: [reported], timeout: 1)
    }
}

/// A report in an XCTest assertion's message: the whole report, each problem's kind, path,
/// message and fix.
final class ValidationReportXCTests: XCTestCase {
    func testAnInterpolatedReportIsTheWholeReport() {
        let report = Container().validate()
        let message = "\(report)"
        XCTAssertEqual(message, report.description)
        XCTAssertTrue(message.hasPrefix(report.summary + "\nerror[nothingChecked]"))
        XCTAssertTrue(message.contains("fix: Name the roots to check"))
    }
}
