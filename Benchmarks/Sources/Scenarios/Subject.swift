import Foundation

/// One subject of a scenario: Depot, a peer or a baseline. Its setup runs only when the subject
/// is measured (package-benchmark runs each in a process of its own), and returns the loop to
/// measure, which runs the operation `n` times.
public struct Subject: Sendable {
    public typealias Loop = @Sendable (_ n: Int) -> Void

    public let scenario: String
    public let name: String
    /// Which case of the scenario: the registrations present for `scaling` and `register-10k`,
    /// the threads for `request` and `contention-2t`.
    public let variant: String?
    /// What the subject does here, when the scenario's id does not say it all.
    public let note: String?
    /// How many operations one pass of the loop counts for: its threads.
    public let operations: Int
    /// What the subject measures: time per operation, or the bytes it keeps allocated.
    public let measure: Measure
    public let setUp: @Sendable () -> Loop

    public enum Measure: Sendable, Equatable {
        case time
        /// Bytes kept per object: one pass of the loop keeps `objects` objects, less `less`
        /// (another subject's id: the part of each object that is not the subject's own).
        case bytes(objects: Int, less: String?)
    }

    public init(
        _ scenario: String, _ name: String, variant: String? = nil, note: String? = nil,
        operations: Int = 1, measure: Measure = .time, setUp: @escaping @Sendable () -> Loop
    ) {
        (self.scenario, self.name, self.variant, self.note) = (scenario, name, variant, note)
        (self.operations, self.measure, self.setUp) = (operations, measure, setUp)
    }

    /// The subject's name in the report: `scenario: subject (variant)`.
    public var id: String { Self.id(scenario, name, variant) }

    /// Its benchmark's name: the id with `_` for each space. package-benchmark 1.38.1 writes a
    /// benchmark's thresholds file with `_` for each space, and looks for it under its name.
    public var benchmarkName: String { id.replacingOccurrences(of: " ", with: "_") }

    public static func id(_ scenario: String, _ name: String, _ variant: String? = nil) -> String {
        "\(scenario): \(name)" + (variant.map { " (\($0))" } ?? "")
    }

    /// How many times one sample runs the loop's operation: a thousand, or one for the
    /// scenarios whose operation takes a millisecond and for bytes, measured per pass.
    public var iterationsPerSample: Int {
        if case .bytes = measure { return 1 }
        return ["validate-1000", "register-10k", "constant-hash-3k"].contains(scenario) ? 1 : 1_000
    }

    /// Whether the operation is a hit, which allocates nothing: a sample's few allocations are
    /// then the task or threads its loop runs in, which vary from one run to the next.
    public var isHit: Bool {
        [
            "cached-hit", "cross-module-hit", "singleton-hit", "scaling", "contention-2t",
            "async-cached-hit",
            "generated-names",
        ]
        .contains(scenario)
    }

    /// Whether this is Depot's own figure (not a peer's or a baseline's).
    public var isDepot: Bool { name.hasPrefix("Depot") }
}

/// Every subject of every scenario, in the order of the report.
public enum Scenarios {
    /// The thread counts above one that `request` and `contention-2t` also run at: the
    /// environment's `DEPOT_BENCHMARK_THREADS` (`2,4,8,16`), or two.
    public static let threads: [Int] = {
        let counts = ProcessInfo.processInfo.environment["DEPOT_BENCHMARK_THREADS"]?
            .split(separator: ",").compactMap { Int($0) }.filter { $0 > 1 }
        return counts.flatMap { $0.isEmpty ? nil : $0 } ?? [2]
    }()

    public static var all: [Subject] {
        resolve + graph + request + scale + constantHash + generatedNames + memory + async
            + validation
    }
}

/// Runs `body(n)` on `count` threads at once, and returns when all are done.
func onThreads(_ count: Int, _ n: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let ready = DispatchGroup()
    let start = DispatchSemaphore(value: 0)
    let done = DispatchGroup()
    for _ in 0..<count {
        ready.enter()
        done.enter()
        Thread.detachNewThread {
            ready.leave()
            start.wait()
            body(n)
            done.leave()
        }
    }
    ready.wait()
    for _ in 0..<count { start.signal() }
    done.wait()
}

/// The subject on one thread, and on each count of `Scenarios.threads` as "N threads"
/// variants, where each thread runs the whole loop.
func onEachThreadCount(
    _ scenario: String, _ name: String, note: String? = nil,
    _ setUp: @escaping @Sendable () -> Subject.Loop
) -> [Subject] {
    [Subject(scenario, name, variant: "1 thread", note: note, setUp: setUp)]
        + Scenarios.threads.map { count in
            Subject(scenario, name, variant: "\(count) threads", note: note, operations: count) {
                let loop = setUp()
                return { n in onThreads(count, n, loop) }
            }
        }
}

/// Objects kept alive by a memory subject's loop, in storage reserved at setup, so that what
/// the loop allocates is what the objects keep.
final class KeptObjects: @unchecked Sendable {
    // Only the one thread that runs a subject's loop touches it.
    private var objects: [AnyObject] = []

    init(capacity: Int) { objects.reserveCapacity(capacity) }

    func keep(_ object: AnyObject) { objects.append(object) }
}
