import Foundation

/// What the crash helper did with a scenario.
struct HelperRun {
    let status: Int32
    let output: String
    let errors: String
}

/// Runs the `depot-crash-helper` executable, built beside the test bundle in the same
/// configuration, with `scenario`, and stops it if it runs past `limit` seconds (SIGTERM, then
/// SIGKILL five seconds later).
///
/// The Swift runtime's backtracer is turned off for it: the tests need the message and the exit
/// status, and the backtracer can hang on a process built with ThreadSanitizer. Output goes to
/// files, not pipes, so a long report never blocks the helper.
func runCrashHelper(_ scenario: String, limit: Double = hangLimit) throws -> HelperRun {
    let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let scratch = FileManager.default.temporaryDirectory
        .appendingPathComponent("depot-crash-helper-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let outputURL = scratch.appendingPathComponent("stdout")
    let errorsURL = scratch.appendingPathComponent("stderr")
    for url in [outputURL, errorsURL] {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
    }

    let process = Process()
    process.executableURL = directory.appendingPathComponent("depot-crash-helper")
    process.arguments = [scenario]
    var environment = ProcessInfo.processInfo.environment
    environment["SWIFT_BACKTRACE"] = "enable=no"
    process.environment = environment
    process.standardOutput = try FileHandle(forWritingTo: outputURL)
    process.standardError = try FileHandle(forWritingTo: errorsURL)
    let exited = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in exited.signal() }
    try process.run()
    if exited.wait(timeout: .now() + limit) == .timedOut {
        process.terminate()
        // A helper that does not end on SIGTERM (stuck in a sanitizer's report, say) is
        // killed, so that it neither hangs the test nor keeps a core busy for the rest of the run.
        if exited.wait(timeout: .now() + 5) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            exited.wait()
        }
    }
    return HelperRun(
        status: process.terminationStatus,
        output: try String(contentsOf: outputURL, encoding: .utf8),
        errors: try String(contentsOf: errorsURL, encoding: .utf8))
}

/// Whether these tests run under ThreadSanitizer, whose runtime is linked in then.
let isThreadSanitized = dlsym(nil, "__tsan_init") != nil
