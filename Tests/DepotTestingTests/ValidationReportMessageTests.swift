import Depot
import Testing

@testable import DepotTesting

@Suite struct ValidationReportMessageTests {
    @Test func aFailedExpectationShowsTheWholeReportOnceInItsComment() {
        let container = Container()
        let report = container.validate()
        let comments = Guarded([String]())
        withKnownIssue {
            #expect(report.isValid, "\(report)")
        } matching: { issue in
            comments.withLock { $0 += issue.comments.map(\.rawValue) }
            return true
        }
        // Each problem's kind, path, message and fix, once; the verdict first.
        #expect(comments.withLock { $0 } == [report.description])
        #expect(report.description.hasPrefix(report.summary + "\nerror[nothingChecked]"))
        #expect(report.description.contains("fix: Name the roots to check"))
    }

    @Test func theVerdictAloneIsTheSummaryAndTheExpandedExpression() {
        let report = Container().validate()
        #expect(report.summary == String(report.description.prefix { $0 != "\n" }))
        #expect(report.testDescription == report.summary)
        #expect(String(describing: report) == report.description)
    }
}
