import Foundation
import Scenarios

// depot-benchmarks --count SCENARIO SUBJECT ITERATIONS
// depot-benchmarks --report JMH-FILE
//
// `--count` runs one subject's loop that many times, untimed, for callgrind
// (`instruction-counts`). `--report` prints each figure of a package-benchmark run, exported as
// JMH (`Benchmarks/run` does both), as a ratio to its scenario's baseline, and the floors.
var arguments = CommandLine.arguments.dropFirst()
switch arguments.popFirst() {
case "--count":
    let (scenario, name) = (arguments.popFirst() ?? "", arguments.popFirst() ?? "")
    let iterations = arguments.popFirst().flatMap { Int($0) } ?? 1
    let subjects = Scenarios.all + Scenarios.counted
    guard let subject = subjects.first(where: { $0.scenario == scenario && $0.name == name })
    else {
        print("error: no subject \(name) in scenario \(scenario)")
        exit(1)
    }
    subject.setUp()(iterations)
case "--report":
    guard let path = arguments.popFirst() else { fallthrough }
    let report = try Report(jmh: URL(fileURLWithPath: path))
    report.printTable()
    report.printTargets()
default:
    print(
        "usage: depot-benchmarks --count SCENARIO SUBJECT ITERATIONS\n"
            + "       depot-benchmarks --report JMH-FILE")
    exit(2)
}
