import Foundation
import Scenarios

/// One subject's figures in a run.
struct Measurement {
    let subject: Subject
    /// The median nanoseconds per operation (0 for a bytes subject).
    let nsPerOp: Double
    /// The samples' spread: (90th percentile − fastest) / median.
    let spread: Double
    /// Bytes kept per object, for the memory scenarios.
    var bytes: Double?

    var scenario: String { subject.scenario }
    var name: String { subject.name }
    var variant: String? { subject.variant }
}

/// The figures of a package-benchmark run exported as JMH: its table of ratios, and the floors.
struct Report {
    let measurements: [Measurement]

    /// Reads `jmh`, made by `swift package benchmark --format jmh`, whose times are the
    /// microseconds of one sample (`Subject.iterationsPerSample` operations on each thread).
    init(jmh: URL) throws {
        struct Element: Decodable {
            struct Metric: Decodable { let scorePercentiles: [String: Double] }
            let benchmark: String
            let secondaryMetrics: [String: Metric]
        }
        let elements = try JSONDecoder().decode([Element].self, from: Data(contentsOf: jmh))
        // The export names a benchmark `package.benchmark.TARGET.NAME`.
        func element(_ subject: Subject) -> Element? {
            let name = "." + subject.benchmarkName
            return elements.first { $0.benchmark.hasSuffix(name) }
        }
        var measurements: [Measurement] = []
        var bytesPerPass: [String: Double] = [:]
        for subject in Scenarios.all {
            guard let element = element(subject) else { continue }
            switch subject.measure {
            case .time:
                guard let time = element.secondaryMetrics["Time (wall clock)"]?.scorePercentiles,
                    let median = time["50.0"], median > 0
                else { continue }
                let operations = Double(subject.iterationsPerSample * subject.operations)
                measurements.append(
                    Measurement(
                        subject: subject, nsPerOp: median * 1_000 / operations,
                        spread: ((time["90.0"] ?? median) - (time["0.0"] ?? median)) / median))
            case .bytes(let objects, _):
                let bytes = element.secondaryMetrics["Malloc / free Δ (bytes)"]?.scorePercentiles
                guard let median = bytes?["50.0"] else { continue }
                bytesPerPass[subject.id] = median / Double(objects)
            }
        }
        for subject in Scenarios.all {
            guard case .bytes(_, let less) = subject.measure, let bytes = bytesPerPass[subject.id]
            else { continue }
            var measurement = Measurement(subject: subject, nsPerOp: 0, spread: 0)
            measurement.bytes = bytes - (less.flatMap { bytesPerPass[$0] } ?? 0)
            measurements.append(measurement)
        }
        self.measurements = measurements
    }

    /// The measurement of `subject` in `scenario`.
    func find(_ scenario: String, _ subject: String, variant: String? = nil) -> Measurement? {
        measurements.first {
            $0.scenario == scenario && $0.name == subject && $0.variant == variant
        }
    }

    /// The subject each scenario's ratio is taken against, with the same variant; `nil` where
    /// the ratio is to the subject's own first variant.
    static let baselines: [String: String] = [
        "cached-hit": "baseline-mutex-dict", "singleton-hit": "baseline-mutex-dict",
        "generated-names": "baseline-mutex-dict",
        "unique": "baseline-direct", "graph10": "baseline-direct",
        "injected5": "baseline-mutex-dict", "container-init": "baseline-mutex-dict",
        "async-cached-hit": "baseline-sync-hit", "async-graph10": "baseline-direct-await",
        "async-unique": "baseline-direct-await", "validate-1000": "Depot resolve",
        "constant-hash-3k": "baseline-dictionary",
    ]

    /// The ratio of `measurement` to its baseline: another subject, or its own first variant
    /// (10 registrations, 1 registration, 1 thread).
    func ratio(of measurement: Measurement) -> Double? {
        if let baseline = Self.baselines[measurement.scenario] {
            guard let base = find(measurement.scenario, baseline, variant: measurement.variant)
            else { return nil }
            return measurement.nsPerOp / base.nsPerOp
        }
        let first = measurements.first {
            $0.scenario == measurement.scenario && $0.name == measurement.name
        }
        guard let first, first.variant != nil, first.nsPerOp > 0 else { return nil }
        return measurement.nsPerOp / first.nsPerOp
    }

    func printTable() {
        print("\n| scenario | subject | ns/op (median) | spread | ratio | bytes |")
        print("| --- | --- | ---: | ---: | ---: | ---: |")
        for measurement in measurements {
            let variant = measurement.variant.map { " (\($0))" } ?? ""
            let ratio = ratio(of: measurement).map { String(format: "%.2f×", $0) } ?? ""
            let time =
                measurement.nsPerOp > 0 ? String(format: "%.1f", measurement.nsPerOp) : ""
            let spread =
                measurement.nsPerOp > 0 ? String(format: "%.0f%%", measurement.spread * 100) : ""
            let bytes = measurement.bytes.map { String(format: "%.0f", $0) } ?? ""
            print(
                "| \(measurement.scenario)\(variant) | \(measurement.name) | \(time) "
                    + "| \(spread) | \(ratio) | \(bytes) |")
        }
    }

    /// Depot's figure for each floor (issue 46's, restated as ratios in one run), and whether
    /// it is met; other figures are reported.
    func printTargets() {
        print("\n| floor | Depot | met |")
        print("| --- | ---: | --- |")
        func row(_ target: String, _ value: Double?, _ format: String, _ isMet: (Double) -> Bool) {
            guard let value else { return }
            print(
                "| \(target) | \(String(format: format, value)) | \(isMet(value) ? "yes" : "NO") |")
        }
        func reported(_ name: String, _ value: Double?, _ format: String = "%.2f×") {
            guard let value else { return }
            print("| \(name) | \(String(format: format, value)) | reported |")
        }
        func depot(_ scenario: String, _ variant: String? = nil) -> Measurement? {
            find(scenario, "Depot", variant: variant)
        }
        /// Depot's time over `subject`'s in the same scenario and variant.
        func over(_ subject: String, _ scenario: String, _ variant: String? = nil) -> Double? {
            guard let depot = depot(scenario, variant),
                let other = find(scenario, subject, variant: variant), other.nsPerOp > 0
            else { return nil }
            return depot.nsPerOp / other.nsPerOp
        }
        for scenario in ["cached-hit", "singleton-hit"] {
            row("\(scenario) ≤ 3× baseline-mutex-dict", depot(scenario).flatMap(ratio), "%.2f×") {
                $0 <= 3
            }
        }
        row("unique ≤ 4× baseline-direct", depot("unique").flatMap(ratio), "%.2f×") { $0 <= 4 }
        row("graph10 ≤ 5× baseline-direct", depot("graph10").flatMap(ratio), "%.2f×") { $0 <= 5 }
        row(
            "request ≤ 6× built by hand (1 thread)",
            over("baseline-direct", "request", "1 thread"), "%.2f×"
        ) { $0 <= 6 }
        row(
            "request: Swinject ≥ 10× Depot (1 thread)",
            over("Swinject", "request", "1 thread").map { 1 / $0 }, "%.1f×"
        ) { $0 >= 10 }
        row(
            "async-cached-hit ≤ 1.5× the sync hit", depot("async-cached-hit").flatMap(ratio),
            "%.2f×"
        ) { $0 <= 1.5 }
        row(
            "memory-per-registration ≤ 320 bytes", depot("memory-per-registration")?.bytes,
            "%.0f bytes"
        ) { $0 <= 320 }
        row(
            "register-10k no slower than Swinject", over("Swinject", "register-10k", "10000"),
            "%.2f×"
        ) { $0 <= 1 }
        row(
            "constant-hash-3k ≤ 10× a Dictionary", depot("constant-hash-3k").flatMap(ratio),
            "%.2f×"
        ) { $0 <= 10 }
        row("container-init no slower than Swinject", over("Swinject", "container-init"), "%.2f×") {
            $0 <= 1
        }
        // Two-thread figures of a 2-vCPU machine are reported, not floors (issue 32).
        let threads = measurements.first { $0.scenario == "request" && $0.variant != "1 thread" }?
            .variant
        if let threads {
            reported(
                "request: throughput at \(threads) vs one thread",
                depot("request", threads).flatMap(ratio).map { 1 / $0 })
        }
        reported(
            "contention-2t: throughput at 2 threads vs one",
            depot("contention-2t", "2 threads").flatMap(ratio).map { 1 / $0 })
        reported("injected5 vs baseline-mutex-dict", depot("injected5").flatMap(ratio))
        reported(
            "async-graph10 vs baseline-closures-bound",
            over("baseline-closures-bound", "async-graph10"))
        reported("scaling: 10,000 vs 10", depot("scaling", "10000").flatMap(ratio))
        // What recording the dependents costs: Depot with `resetsDependents` on over Depot.
        for (scenario, variant) in [("cached-hit", nil), ("unique", nil), ("request", "1 thread")] {
            if let on = find(scenario, "Depot+resetsDependents", variant: variant),
                let off = depot(scenario, variant), off.nsPerOp > 0
            {
                reported("\(scenario): resetsDependents on ÷ off", on.nsPerOp / off.nsPerOp)
            }
        }
        for swinject in measurements where swinject.name == "Swinject" {
            guard swinject.scenario != "request",
                let ratio = over("Swinject", swinject.scenario, swinject.variant)
            else { continue }
            let name = swinject.scenario + (swinject.variant.map { " (\($0))" } ?? "")
            reported("\(name): Swinject ÷ Depot", 1 / ratio, "%.1f×")
        }
    }
}
