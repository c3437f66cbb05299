import Foundation

/// The table, the targets and the JSON file of a run.
extension Run {
    /// The subject each scenario's ratio is taken against, with the same variant; `nil` where
    /// the ratio is to the subject's own first variant.
    static let baselines: [String: String] = [
        "cached-hit": "baseline-mutex-dict", "singleton-hit": "baseline-mutex-dict",
        "unique": "baseline-direct", "graph10": "baseline-direct",
        "injected5": "baseline-mutex-dict", "container-init": "baseline-mutex-dict",
        "async-cached-hit": "baseline-sync-hit", "async-graph10": "baseline-direct-await",
        "async-unique": "baseline-direct-await",
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
            $0.scenario == measurement.scenario && $0.subject == measurement.subject
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
                "| \(measurement.scenario)\(variant) | \(measurement.subject) | \(time) "
                    + "| \(spread) | \(ratio) | \(bytes) |")
        }
    }

    /// Depot's figure for each target of the benchmarks issue, and whether it is met.
    func printTargets() {
        print("\n| target | Depot | met |")
        print("| --- | ---: | --- |")
        func row(_ target: String, _ value: Double?, _ format: String, _ isMet: (Double) -> Bool) {
            guard let value else { return }
            print(
                "| \(target) | \(String(format: format, value)) | \(isMet(value) ? "yes" : "NO") |")
        }
        func depot(_ scenario: String, _ variant: String? = nil) -> Measurement? {
            find(scenario, "Depot", variant: variant)
        }
        for scenario in ["cached-hit", "singleton-hit"] {
            row("\(scenario) ≤ 2× baseline-mutex-dict", depot(scenario).flatMap(ratio), "%.2f×") {
                $0 <= 2
            }
        }
        let request = find("request", "baseline-direct", variant: "1 thread")
        row(
            "request ≤ 5× built by hand (1 thread)",
            depot("request", "1 thread").flatMap { depot in
                request.map { depot.nsPerOp / $0.nsPerOp }
            },
            "%.2f×"
        ) { $0 <= 5 }
        let threads = measurements.first { $0.scenario == "request" && $0.variant != "1 thread" }?
            .variant
        if let threads {
            let throughput = depot("request", threads).flatMap(ratio).map { 1 / $0 }
            let count = Double(threads.prefix { $0.isNumber }) ?? 2
            let target = count <= 2 ? 1.8 : count / 2
            row(
                "request: throughput at \(threads) ≥ \(target)× one thread", throughput,
                "%.2f×"
            ) { $0 >= target }
        }
        row("unique ≤ 3× baseline-direct", depot("unique").flatMap(ratio), "%.2f×") { $0 <= 3 }
        row("graph10 ≤ 3× baseline-direct", depot("graph10").flatMap(ratio), "%.2f×") { $0 <= 3 }
        row(
            "async-cached-hit ≤ 1.5× the sync hit", depot("async-cached-hit").flatMap(ratio),
            "%.2f×"
        ) { $0 <= 1.5 }
        row(
            "async-graph10 ≤ 3× built by hand with awaits", depot("async-graph10").flatMap(ratio),
            "%.2f×"
        ) { $0 <= 3 }
        row("injected5 ≤ 1.5× baseline-mutex-dict", depot("injected5").flatMap(ratio), "%.2f×") {
            $0 <= 1.5
        }
        row("scaling: 10,000 ≤ 1.3× of 10", depot("scaling", "10000").flatMap(ratio), "%.2f×") {
            $0 <= 1.3
        }
        let throughput = depot("contention-2t", "2 threads").flatMap(ratio).map { 1 / $0 }
        row("contention-2t: throughput ≥ 1.0× one thread", throughput, "%.2f×") { $0 >= 1 }
        row("register-10k ≤ 2× with one", depot("register-10k", "10000").flatMap(ratio), "%.2f×") {
            $0 <= 2
        }
        row("container-init ≤ 1 µs", depot("container-init")?.nsPerOp, "%.0f ns") { $0 <= 1_000 }
        row("container-init ≤ 1 KB", depot("container-init")?.bytes, "%.0f bytes") { $0 <= 1_024 }
        row(
            "memory-per-registration ≤ 150 bytes", depot("memory-per-registration")?.bytes,
            "%.0f bytes"
        ) {
            $0 <= 150
        }
    }

    /// Writes `[{"scenario": …, "subject": …, "nsPerOp": …}]`, with `variant`, `bytes`, `ratio`
    /// and `note` where they apply.
    func writeJSON(to path: String) throws {
        let objects: [[String: Any]] = measurements.map { measurement in
            var object: [String: Any] = [
                "scenario": measurement.scenario, "subject": measurement.subject,
                "nsPerOp": measurement.nsPerOp, "spread": measurement.spread,
            ]
            object["variant"] = measurement.variant
            object["bytes"] = measurement.bytes
            object["ratio"] = ratio(of: measurement)
            object["note"] = measurement.note
            return object
        }
        let data = try JSONSerialization.data(
            withJSONObject: objects, options: [.prettyPrinted, .sortedKeys])
        try data.write(to: URL(fileURLWithPath: path))
    }
}
