import Foundation

// depot-benchmarks [--quick] [--json FILE] [--filter TEXT[,TEXT...]] [--threads N[,N...]]
//
// Times Depot, Swinject, swift-dependencies and hand-written baselines in one run, and prints
// each figure as a ratio to its scenario's baseline. Build in release:
//     swift run -c release depot-benchmarks
var arguments = CommandLine.arguments.dropFirst()
var settings = Settings.full
var jsonPath: String?
var filter: String?
var threads = [2]
while let argument = arguments.popFirst() {
    switch argument {
    case "--quick": settings = .quick
    case "--json": jsonPath = arguments.popFirst()
    case "--filter": filter = arguments.popFirst()
    case "--threads":
        threads = arguments.popFirst()?.split(separator: ",").compactMap { Int($0) } ?? [2]
    default:
        print(
            "usage: depot-benchmarks [--quick] [--json FILE] [--filter TEXT[,TEXT...]] "
                + "[--threads N[,N...]]")
        exit(2)
    }
}
#if DEBUG
    print("warning: a debug build; time a release build (swift run -c release ...)")
#endif

let run = Run(settings: settings, filter: filter)
let counts = threads.filter { $0 > 1 }
run.threads = counts.isEmpty ? [2] : counts
run.resolveScenarios()
run.graphScenario()
run.requestScenario()
run.scaleScenarios()
run.memoryScenarios()
run.asyncScenarios()
run.validationScenario()
run.printTable()
run.printTargets()
if let jsonPath {
    try run.writeJSON(to: jsonPath)
    print("\nwrote \(jsonPath)")
}
