@_spi(Testing) import Depot
import Foundation
import Testing

// A validation run in a child process, with Swift Testing's exit tests (Swift 6.2, on the
// platforms that have them: not iOS, tvOS, watchOS or visionOS): the child writes a line to
// standard error as each root starts, and hands its report to the test on one line after a
// marker, whether the validation returned or a synchronous stop ended the process; the test
// decodes it. The every-root loop runs the child again after each root that stopped it.

#if compiler(>=6.2) && (os(macOS) || os(Linux) || os(FreeBSD) || os(OpenBSD) || os(Windows))
    extension ValidationReport {
        /// The line's start that the report's JSON follows in a child's standard error.
        private static let marker = "depot-validation-report: "
        /// The line's start of a root starting: its index, the number of roots, its name.
        private static let rootMarker = "depot-validation-root: "

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
            reportToParent(startingAt: 0, validate)
        }

        /// In an exit test's child process: runs `validate`, such as `validate(roots:)`, hands
        /// its report to the test, and ends the child, as the synchronous form does.
        public static func reportToParent(_ validate: () async -> ValidationReport) async -> Never {
            await reportToParent(startingAt: 0, validate)
        }

        /// In an exit test's child process that ``checkingEveryRoot(_:)`` runs: runs
        /// `validate` from its root `start` on (the first is 0), hands its report to the test,
        /// and ends the child.
        public static func reportToParent(
            startingAt start: Int, _ validate: () -> ValidationReport
        ) -> Never {
            startChild(at: start)
            write(validate())
            exit(EXIT_FAILURE)
        }

        /// The async form of ``reportToParent(startingAt:_:)-swift.type.method``, for
        /// `validate(roots:)`.
        public static func reportToParent(
            startingAt start: Int, _ validate: () async -> ValidationReport
        ) async -> Never {
            startChild(at: start)
            write(await validate())
            exit(EXIT_FAILURE)
        }

        /// Validates every root, each problem found once, though a synchronous stop (a cycle,
        /// the depth limit) ends the child process that validates: `child` runs the user's exit
        /// test from the root it is given on, and runs again from the root after the one that
        /// stopped, until every root is checked. A child that ends without a report is a
        /// problem at the root it was checking, with its standard error.
        ///
        /// ```swift
        /// @Test func everyRootIsValid() async throws {
        ///     let report = try await ValidationReport.checkingEveryRoot { start in
        ///         await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        ///             [start] in
        ///             ValidationReport.reportToParent(startingAt: start) {
        ///                 Container.shared.validate(\.imageStore, \.connectionLog)
        ///             }
        ///         }
        ///     }
        ///     #expect(report.isValid, "\(report)")
        /// }
        /// ```
        ///
        /// - Throws: ``ChildProcessError`` if a child wrote no report and started no root, or
        ///   the exit test did not run.
        public nonisolated(nonsending) static func checkingEveryRoot(
            _ child: (_ start: Int) async -> ExitTest.Result?
        )
            async throws -> ValidationReport
        {
            var merged: ValidationReport?
            var start = 0
            while true {
                guard let result = await child(start) else {
                    throw ChildProcessError(
                        standardError: "(the exit test's expectation failed: see its issue)")
                }
                let text = String(decoding: result.standardErrorContent, as: UTF8.self)
                let root = lastRoot(in: text)
                let report: ValidationReport
                if let written = try? ValidationReport(standardError: text) {
                    report = written
                } else if let root {
                    let container = merged?.container ?? String(root.name.prefix { $0 != "." })
                    report = .childEnded(container: container, root: root.name, standardError: text)
                } else {
                    throw ChildProcessError(standardError: text)
                }
                merged = merged?.merged(with: report) ?? report
                // The child stopped at a root before the last: go on after it.
                guard let root, root.index + 1 < root.count else { return merged! }
                start = root.index + 1
            }
        }

        /// The report the child process of `exitTest` handed to the test with
        /// ``reportToParent(_:)-swift.type.method``.
        ///
        /// - Throws: ``ChildProcessError`` if the child wrote no report: it ended before or
        ///   outside the validation. The error holds what it wrote to standard error.
        public init(exitTest: ExitTest.Result) throws {
            try self.init(
                standardError: String(decoding: exitTest.standardErrorContent, as: UTF8.self))
        }

        /// The report a child wrote in `text`, its standard error.
        private init(standardError text: String) throws {
            let line = text.split(separator: "\n").last { $0.hasPrefix(Self.marker) }
            guard let line else { throw ChildProcessError(standardError: text) }
            let json = Data(line.dropFirst(Self.marker.count).utf8)
            self = try JSONDecoder().decode(ValidationReport.self, from: json)
        }

        /// The root a child wrote it started last in `text`, its standard error.
        private static func lastRoot(in text: String) -> (index: Int, count: Int, name: String)? {
            let line = text.split(separator: "\n").last { $0.hasPrefix(Self.rootMarker) }
            guard
                let fields = line?.dropFirst(rootMarker.count).split(separator: " ", maxSplits: 2),
                fields.count == 3, let index = Int(fields[0]), let count = Int(fields[1])
            else { return nil }
            return (index, count, String(fields[2]))
        }

        /// Sets up this child process: its validations start at root `start`, write a line as
        /// each root starts, and hand their report to the test if a stop ends the process.
        private static func startChild(at start: Int) {
            ReportWriter.set(write)
            ReportWriter.start(at: start) { index, count, name in
                writeLine(rootMarker + "\(index) \(count) \(name)")
            }
        }

        /// Writes `report` to standard error, on one line after the marker.
        @Sendable private static func write(_ report: ValidationReport) {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            let json = (try? encoder.encode(report)).map { String(decoding: $0, as: UTF8.self) }
            writeLine(marker + (json ?? "{}"))
        }

        /// Writes `line` to standard error at once, on a line of its own.
        private static func writeLine(_ line: String) {
            FileHandle.standardError.write(Data("\n\(line)\n".utf8))
        }
    }
#endif

extension ValidationReport {
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
    /// expectation's comment (`#expect(report.isValid, "\(report)")`), where Swift Testing
    /// would otherwise write its ``ValidationReport/testDescription``.
    public mutating func appendInterpolation(_ report: ValidationReport) {
        appendLiteral(report.description)
    }
}
