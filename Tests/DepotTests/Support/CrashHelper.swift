import Foundation

/// What the crash helper did with a scenario.
struct HelperRun {
    let status: Int32
    let output: String
    let errors: String
}

/// Runs the `depot-crash-helper` executable, built beside the test bundle in the same
/// configuration, with `scenario`.
func runCrashHelper(_ scenario: String) throws -> HelperRun {
    let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let process = Process()
    process.executableURL = directory.appendingPathComponent("depot-crash-helper")
    process.arguments = [scenario]
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return HelperRun(
        status: process.terminationStatus,
        output: String(decoding: outputData, as: UTF8.self),
        errors: String(decoding: errorData, as: UTF8.self))
}
