import Depot
import Foundation
import Testing

// A validation run in a child process, with Swift Testing's exit tests: the child hands its
// report to the test through standard error, on one line after a marker, whether the
// validation returned or a synchronous stop ended the process; the test decodes it.

extension ValidationReport {
    /// The line's start that the report's JSON follows in a child's standard error.
    private static let marker = "depot-validation-report: "

    /// In an exit test's child process: runs `validate`, hands its report to the test, and
    /// ends the child, which so always exits with a failure status. A stop that ends the
    /// process inside `validate` hands the report found so far.
    ///
    /// ```swift
    /// @Test func graphIsValid() async throws {
    ///     let child = await #expect(
    ///         processExitsWith: .failure, observing: [\.standardErrorContent]
    ///     ) {
    ///         ValidationReport.reportToParent { Container.shared.validate(\.appModel) }
    ///     }
    ///     let report = try ValidationReport(exitTest: #require(child))
    ///     #expect(report.isValid, "\(report)")
    /// }
    /// ```
    public static func reportToParent(_ validate: () -> ValidationReport) -> Never {
        ReportWriter.set(write)
        write(validate())
        exit(EXIT_FAILURE)
    }

    /// In an exit test's child process: runs `validate`, such as `validate(roots:)`, hands
    /// its report to the test, and ends the child, as the synchronous form does.
    public static func reportToParent(_ validate: () async -> ValidationReport) async -> Never {
        ReportWriter.set(write)
        write(await validate())
        exit(EXIT_FAILURE)
    }

    /// The report the child process of `exitTest` handed to the test with
    /// ``reportToParent(_:)-swift.type.method``.
    ///
    /// - Throws: ``ChildProcessError`` if the child wrote no report: it ended before or
    ///   outside the validation. The error holds what it wrote to standard error.
    public init(exitTest: ExitTest.Result) throws {
        let text = String(decoding: exitTest.standardErrorContent, as: UTF8.self)
        let line = text.split(separator: "\n").last { $0.hasPrefix(Self.marker) }
        guard let line else { throw ChildProcessError(standardError: text) }
        let json = Data(line.dropFirst(Self.marker.count).utf8)
        self = try JSONDecoder().decode(ValidationReport.self, from: json)
    }

    /// Writes `report` to standard error, on one line after the marker.
    @Sendable private static func write(_ report: ValidationReport) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = (try? encoder.encode(report)).map { String(decoding: $0, as: UTF8.self) }
        FileHandle.standardError.write(Data("\n\(marker)\(json ?? "{}")\n".utf8))
    }

    /// A child process of an exit test that wrote no validation report.
    public struct ChildProcessError: Error, CustomStringConvertible {
        /// What the child wrote to standard error.
        public let standardError: String

        public var description: String {
            "The child process wrote no validation report; its standard error:\n"
                + standardError
        }
    }
}

extension ValidationReport: CustomTestStringConvertible {
    /// The report's verdict (``summary``), as an expectation's expanded expression shows
    /// the report: the comment that interpolates it shows it whole, once.
    public var testDescription: String { summary }
}

extension Comment.StringInterpolation {
    /// Interpolates the whole report, as ``ValidationReport/description`` writes it: in an
    /// expectation's comment too (`#expect(report.isValid, "\(report)")`), where Swift
    /// Testing would otherwise write its ``ValidationReport/testDescription``.
    public mutating func appendInterpolation(_ report: ValidationReport) {
        appendLiteral(report.description)
    }
}
