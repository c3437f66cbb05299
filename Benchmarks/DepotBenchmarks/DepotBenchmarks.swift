import Benchmark
import Foundation
import Scenarios

// package-benchmark's suite: one benchmark per subject of `Scenarios.all`, named
// `scenario:_subject_(variant)` (`Subject.benchmarkName`). Each runs in a process of its own;
// its setup builds what it resolves before the measurement starts. Run them all, with the
// ratios and floors, with `Benchmarks/run` (README.md).
let benchmarks: @Sendable () -> Void = {
    // `DEPOT_BENCHMARK_QUICK=1`: a fraction of a second each, as CI runs them.
    let isQuick = ProcessInfo.processInfo.environment["DEPOT_BENCHMARK_QUICK"] != nil
    for subject in Scenarios.all {
        Benchmark(
            subject.benchmarkName, configuration: configuration(of: subject, isQuick: isQuick)
        ) {
            benchmark, loop in
            loop(benchmark.scaledIterations.count)
        } setup: {
            subject.setUp()
        }
    }
}

/// What `subject` measures, how often, and the thresholds of Depot's own figures.
func configuration(of subject: Subject, isQuick: Bool) -> Benchmark.Configuration {
    if case .bytes = subject.measure {
        // A pass keeps its objects until the process ends: a few passes, in their reserved
        // storage (`Scenarios.bytesPasses`).
        return .init(
            metrics: [.throughput, .memoryLeakedBytes, .mallocCountTotal],
            warmupIterations: 1, scalingFactor: .one, maxDuration: .seconds(10),
            maxIterations: Scenarios.bytesPasses - 1)
    }
    var thresholds: [BenchmarkMetric: BenchmarkThresholds]?
    if subject.isDepot {
        thresholds = [
            // Allocations are the same from one host to the next: CI checks them. A hit's
            // sample allocates a few times at most (its task, its threads): one allocation an
            // operation would be a thousand more.
            .mallocCountTotal: subject.isHit
                ? .init(absolute: [.p90: 4]) : .init(relative: [.p90: 2]),
            // Times move with the host by tens of percent: for a check on one machine.
            .wallClock: .init(relative: [.p90: 35]),
        ]
    }
    return .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        warmupIterations: isQuick ? 1 : 3,
        scalingFactor: BenchmarkScalingFactor(rawValue: subject.iterationsPerSample)!,
        maxDuration: isQuick ? .milliseconds(150) : .seconds(1),
        maxIterations: isQuick ? 50 : 10_000,
        thresholds: thresholds)
}
