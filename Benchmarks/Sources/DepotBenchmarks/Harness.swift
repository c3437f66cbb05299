import BenchmarkSupport
import Foundation

/// How long and how often each subject is timed.
struct Settings {
    /// The time one round should take; the iteration count is calibrated to reach it.
    let roundNanoseconds: UInt64
    let rounds: Int

    static let full = Settings(roundNanoseconds: 20_000_000, rounds: 15)
    static let quick = Settings(roundNanoseconds: 2_000_000, rounds: 5)
}

/// One subject's figures in one scenario.
struct Measurement {
    let scenario: String
    let subject: String
    /// Which case of the scenario: the registrations present for `scaling` and `register-10k`,
    /// the threads for `request` and `contention-2t`.
    var variant: String?
    /// The median of the rounds' nanoseconds per operation.
    let nsPerOp: Double
    /// The rounds' spread: (slowest − fastest) / median.
    let spread: Double
    /// Bytes per operation, for the memory scenarios.
    var bytes: Double?
    /// What the subject does here, when the scenario's id does not say it all.
    var note: String?
}

/// Times operations: warm-up, calibration, then rounds, reported by their median.
struct Timer {
    let settings: Settings

    /// Times `body(iterations)`, which runs the operation `iterations` times; `operations` is how
    /// many operations one iteration counts for.
    /// Without `nsPerOp`, the iteration count is calibrated by running `body`; with it, the
    /// count is the round's time divided by it.
    func measure(operations: Int = 1, nsPerOp: Double? = nil, _ body: (Int) -> Void) -> (
        median: Double, spread: Double
    ) {
        var iterations = 1
        if let nsPerOp {
            iterations = max(1, Int(Double(settings.roundNanoseconds) / nsPerOp))
        }
        // Calibrate: double until a round takes a tenth of its time, then scale up.
        while nsPerOp == nil {
            let start = nanoseconds()
            body(iterations)
            let elapsed = nanoseconds() - start
            if elapsed >= settings.roundNanoseconds / 10 || iterations >= 1 << 30 {
                let scale = Double(settings.roundNanoseconds) / Double(max(elapsed, 1))
                iterations = max(1, Int(Double(iterations) * min(scale, 10)))
                break
            }
            iterations *= 2
        }
        body(iterations)  // warm-up
        var perOp: [Double] = []
        for _ in 0..<settings.rounds {
            let start = nanoseconds()
            body(iterations)
            let elapsed = nanoseconds() - start
            perOp.append(Double(elapsed) / Double(iterations * operations))
        }
        perOp.sort()
        let median = perOp[perOp.count / 2]
        return (median, (perOp.last! - perOp.first!) / median)
    }
}

/// Collects the measurements of a run.
final class Run {
    let timer: Timer
    let filter: String?
    /// The thread counts above one that `request` and `contention-2t` also run at:
    /// `--threads 2,4,8,16`, two by default.
    var threads = [2]
    private(set) var measurements: [Measurement] = []
    /// Set by `--count`: run only this subject's body of this scenario, that many iterations,
    /// untimed, then exit, for callgrind (see `instruction-counts`).
    var counting: (scenario: String, subject: String, iterations: Int)?

    init(settings: Settings, filter: String?) {
        timer = Timer(settings: settings)
        self.filter = filter
    }

    /// Whether the scenario is selected by the `--filter` argument: one of its comma-separated
    /// texts is part of the scenario's name.
    func includes(_ scenario: String) -> Bool {
        filter.map { $0.split(separator: ",").contains { scenario.contains($0) } } ?? true
    }

    /// Times `body` and records it as `subject` in `scenario`.
    @discardableResult
    func time(
        _ scenario: String, _ subject: String, variant: String? = nil, operations: Int = 1,
        nsPerOp: Double? = nil, note: String? = nil, _ body: (Int) -> Void
    ) -> Double {
        if let counting {
            guard scenario == counting.scenario, subject == counting.subject else { return 0 }
            body(counting.iterations)
            exit(0)
        }
        let (median, spread) = timer.measure(operations: operations, nsPerOp: nsPerOp, body)
        record(
            Measurement(
                scenario: scenario, subject: subject, variant: variant, nsPerOp: median,
                spread: spread, note: note))
        return median
    }

    /// Adds the bytes per operation to the last measurement.
    func addBytes(_ bytes: Double) {
        measurements[measurements.count - 1].bytes = bytes
        print(String(format: "    %.0f bytes", bytes))
    }

    func record(_ measurement: Measurement) {
        measurements.append(measurement)
        let variant = measurement.variant.map { " (\($0))" } ?? ""
        let bytes = measurement.bytes.map { String(format: "  %.0f bytes", $0) } ?? ""
        print(
            "  \(measurement.scenario)\(variant) / \(measurement.subject): "
                + String(format: "%.1f ns/op", measurement.nsPerOp) + bytes)
    }

    /// The measurement of `subject` in `scenario`.
    func find(_ scenario: String, _ subject: String, variant: String? = nil) -> Measurement? {
        measurements.first {
            $0.scenario == scenario && $0.subject == subject && $0.variant == variant
        }
    }
}
