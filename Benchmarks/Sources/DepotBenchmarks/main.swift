import Foundation

// depot-benchmarks [--quick] [--json FILE] [--filter TEXT]
//
// Times Depot, Swinject, swift-dependencies and hand-written baselines in one run, and prints
// each figure as a ratio to its scenario's baseline. Build in release:
//     swift run -c release depot-benchmarks
var arguments = CommandLine.arguments.dropFirst()
var settings = Settings.full
var jsonPath: String?
var filter: String?
while let argument = arguments.popFirst() {
    switch argument {
    case "--quick": settings = .quick
    case "--json": jsonPath = arguments.popFirst()
    case "--filter": filter = arguments.popFirst()
    default:
        print("usage: depot-benchmarks [--quick] [--json FILE] [--filter TEXT]")
        exit(2)
    }
}
#if DEBUG
    print("warning: a debug build; time a release build (swift run -c release ...)")
#endif

let run = Run(settings: settings, filter: filter)
run.resolveScenarios()
run.graphScenario()
run.scaleScenarios()
run.memoryScenarios()
run.asyncScenarios()
run.printTable()
run.printTargets()
if let jsonPath {
    try run.writeJSON(to: jsonPath)
    print("\nwrote \(jsonPath)")
}
