import Foundation

// depot-benchmarks [--quick] [--json FILE] [--filter TEXT[,TEXT...]] [--threads N[,N...]]
// depot-benchmarks --count SCENARIO SUBJECT ITERATIONS
//
// Times Depot, Swinject, swift-dependencies and hand-written baselines in one run, and prints
// each figure as a ratio to its scenario's baseline. Build in release:
//     swift run -c release depot-benchmarks
var arguments = CommandLine.arguments.dropFirst()
var settings = Settings.full
var jsonPath: String?
var filter: String?
var threads = [2]
var counting: (scenario: String, subject: String, iterations: Int)?
while let argument = arguments.popFirst() {
    switch argument {
    case "--quick": settings = .quick
    case "--json": jsonPath = arguments.popFirst()
    case "--filter": filter = arguments.popFirst()
    case "--count":
        // One subject's body, run that many times untimed: for instruction counts.
        let (scenario, subject) = (arguments.popFirst() ?? "", arguments.popFirst() ?? "")
        counting = (scenario, subject, arguments.popFirst().flatMap { Int($0) } ?? 1)
        filter = scenario
    case "--threads":
        threads = arguments.popFirst()?.split(separator: ",").compactMap { Int($0) } ?? [2]
    default:
        print(
            "usage: depot-benchmarks [--quick] [--json FILE] [--filter TEXT[,TEXT...]] "
                + "[--threads N[,N...]]\n       depot-benchmarks --count SCENARIO SUBJECT ITERATIONS"
        )
        exit(2)
    }
}
#if DEBUG
    print("warning: a debug build; time a release build (swift run -c release ...)")
#endif

let run = Run(settings: settings, filter: filter)
let counts = threads.filter { $0 > 1 }
run.threads = counts.isEmpty ? [2] : counts
run.counting = counting
run.resolveScenarios()
run.graphScenario()
run.requestScenario()
run.scaleScenarios()
run.memoryScenarios()
run.asyncScenarios()
run.validationScenario()
if let counting {
    print("error: no subject \(counting.subject) in scenario \(counting.scenario)")
    exit(1)
}
run.printTable()
run.printTargets()
if let jsonPath {
    try run.writeJSON(to: jsonPath)
    print("\nwrote \(jsonPath)")
}
