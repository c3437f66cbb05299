import Depot
import DepotTesting
import Foundation
import Testing

/// A container whose graph a hostile user would validate: locks held on a cycle, a legacy
/// `static let` on the failing path, validation from inside a factory and from `autoRegister()`.
final class HostileContainer: SharedContainer, AutoRegistering {
    static let shared = HostileContainer()
    let manager = ContainerManager()
    /// The report `autoRegister()` made, when asked to validate.
    let reportAtLaunch = Locked<ValidationReport?>(nil)
    let validatesAtLaunch: Bool

    init(validatesAtLaunch: Bool = false) {
        self.validatesAtLaunch = validatesAtLaunch
    }

    func autoRegister() {
        guard validatesAtLaunch else { return }
        let report = validate(\.plain)
        reportAtLaunch.withLock { $0 = report }
    }
}

/// A legacy singleton on a cycle's path, as apps still have.
final class LegacyAnalytics: @unchecked Sendable {
    static let shared = LegacyAnalytics(HostileContainer.shared.session())
    init(_: Part) {}
}

/// How often a closure on a cycle ran.
let cycleRuns = Locked(0)
let recursiveLock = NSRecursiveLock()
let plainLock = NSLock()

extension HostileContainer {
    var plain: Factory<Part> { self { Part("plain") } }
    var session: Factory<Part> {
        self {
            _ = LegacyAnalytics.shared; return Part("session")
        }
    }
    var locked: Factory<Part> {
        self {
            recursiveLock.lock()
            defer { recursiveLock.unlock() }
            return Part("locked", [self.lockedNext()])
        }
    }
    var lockedNext: Factory<Part> { self { Part("next", [self.locked()]) } }
    var uniqueCycle: Factory<Part> {
        self {
            cycleRuns.withLock { $0 += 1 }
            plainLock.lock()
            defer { plainLock.unlock() }
            return Part("unique", [self.uniqueNext()])
        }
    }
    var uniqueNext: Factory<Part> { self { Part("next", [self.uniqueCycle()]) } }
    var validatesInside: Factory<ValidationReport> { self { self.validate(\.plain) } }
    var onMainChecked: Factory<Part> {
        self(
            {
                MainActor.preconditionIsolated("run off the main actor")
                return Part("main")
            }, isolation: MainActor.shared)
    }
    var throwing: AsyncFactory<Part> {
        self { throw DatabaseError() }
    }
    var needsThrowing: AsyncFactory<Part> { self { Part("needs", [try await self.throwing()]) } }
    var asyncLoopA: AsyncFactory<Tracked> {
        self {
            _ = try await self.asyncLoopB(); return Tracked()
        }
    }
    var asyncLoopB: AsyncFactory<Tracked> {
        self {
            _ = try await self.asyncLoopA(); return Tracked()
        }
    }
    var keptTracked: Factory<Tracked> {
        self { Tracked() }.cached.onDispose { _ in disposed.withLock { $0 += 1 } }
    }
    var failingWithKept: AsyncFactory<Tracked> {
        self {
            _ = self.keptTracked(); return try await self.asyncLoopA()
        }
    }
    var cachedRequest: Factory<Part> { self { Part("request") }.cached }
    var singletonKeeper: Factory<Part> { self { Part("keeper", [self.cachedRequest()]) }.singleton }
}

struct DatabaseError: Error, CustomStringConvertible {
    var description: String { "cannot open database" }
}

let disposed = Locked(0)

/// The threads of this process, on Linux; `nil` elsewhere.
func threadCount() -> Int? {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task"))?.count
}

@Suite(.timeLimit(.minutes(2))) struct ValidationSoundnessTests {
    @Test func aCycleEndsTheProcessWithItsReportAndNeverHangs() async throws {
        // The legacy `static let` on the path and a recursive lock held on the cycle: before,
        // the validation parked its thread holding both, and the next access hung.
        let child = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            ValidationReport.reportToParent { HostileContainer().validate(\.locked) }
        }
        let report = try childReport(child)
        #expect(report.errors.map(\.kind) == [.cycle], "\(report)")
        #expect(standardError(child).contains("error[cycle] HostileContainer.locked<Part>"))
    }

    @Test func aUniqueCycleStopsBeforeAClosureRunsTwice() async throws {
        // Without a validation: the plain lock its closure holds is never taken twice.
        let child = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = HostileContainer().uniqueCycle()
        }
        let text = standardError(child)
        #expect(
            text.contains(
                "Depot: circular dependency: HostileContainer.uniqueCycle<Part> -> "
                    + "HostileContainer.uniqueNext<Part> -> HostileContainer.uniqueCycle<Part>"),
            "\(text)")
        #expect(!text.contains("Validation.swift"))
    }

    @Test func aUniqueCycleInAValidationRunsEachClosureOnce() async throws {
        let child = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            ValidationReport.reportToParent {
                let report = HostileContainer().validate(\.uniqueCycle)
                return report
            }
        }
        let report = try childReport(child)
        #expect(report.errors.map(\.kind) == [.cycle])
    }

    @Test func validateInsideAFactoryValidates() {
        let report = HostileContainer().validatesInside()
        #expect(report.isValid, "\(report)")
        #expect(report.graph.nodes.map(\.description) == ["HostileContainer.plain<Part>"])
    }

    @Test func validateFromAutoRegisterValidates() {
        let container = HostileContainer(validatesAtLaunch: true)
        #expect(container.plain().name == "plain")
        let report = container.reportAtLaunch.withLock { $0 }
        #expect(report?.isValid == true, "\(String(describing: report))")
    }

    @Test func asyncValidateNeedsNoMainThreadForARootOffIt() async throws {
        // A command-line tool's main thread blocked on a semaphore, and validation from a task.
        await #expect(processExitsWith: .success) {
            let blocked = DispatchSemaphore(value: 0)
            DispatchQueue.main.async { blocked.wait() }
            let report = await Task.detached {
                await HostileContainer().validate(roots: [.factory(\.plain)])
            }.value
            blocked.signal()
            exit(report.isValid ? EXIT_SUCCESS : EXIT_FAILURE)
        }
    }

    @MainActor @Test func aMainActorRootRunsOnTheMainActor() {
        let report = HostileContainer().validate(\.onMainChecked)
        #expect(report.isValid, "\(report)")
        #expect(report.unchecked.isEmpty)
    }

    @Test func aMainActorRootOffTheMainActorIsUncheckedWithTheFix() async {
        let report = await Task.detached { HostileContainer().validate(\.onMainChecked) }.value
        #expect(report.unchecked.map(\.factory) == ["HostileContainer.onMainChecked<Part>"])
        #expect(report.unchecked.first?.reason.contains("await validate(roots:)") == true)
        #expect(!report.isValid, "nothing was checked")
        // The async form hops to the main actor for it.
        let hopped = await Task.detached {
            await HostileContainer().validate(roots: [.factory(\.onMainChecked)])
        }.value
        #expect(hopped.isValid, "\(hopped)")
    }

    @Test func aThrowingAsyncFactoryIsAProblemWithItsError() async {
        let report = await HostileContainer().validate(roots: [.async(\.needsThrowing)])
        #expect(!report.isValid)
        let threw = report.errors.first
        #expect(report.errors.map(\.kind) == [.factoryThrew], "\(report)")
        #expect(
            threw?.message == "Depot: HostileContainer.throwing<Part> threw: cannot open database")
        #expect(
            threw?.path == [
                "HostileContainer.needsThrowing<Part>", "HostileContainer.throwing<Part>",
            ])
    }

    @Test func aValidationThatCheckedNothingIsNotValid() {
        let report = Container().validate()
        #expect(!report.isValid)
        #expect(report.errors.map(\.kind) == [.nothingChecked])
        #expect("\(report)".contains("checked no factory"))
    }

    @Test func aSyncValidationNamesTheAsyncFactoriesItLeftUnchecked() {
        let container = HostileContainer()
        container.throwing.register { Part("registered") }
        let report = container.validate()
        #expect(report.unchecked.map(\.factory) == ["HostileContainer.throwing<Part>"])
        #expect(report.unchecked.first?.reason.contains("await validate(roots:") == true)
    }

    @Test func aSingletonKeepingACachedInstanceIsAWarning() {
        let report = HostileContainer().validate(\.singletonKeeper)
        #expect(report.isValid, "\(report)")
        let warning = report.warnings.first
        #expect(report.warnings.map(\.kind) == [.keptPastReset])
        #expect(
            warning?.fix.contains("Give HostileContainer.cachedRequest<Part> the singleton") == true
        )
    }

    @Test func failingValidationsKeepNothingAndNoThread() async {
        let before = threadCount()
        let aliveBefore = Tracked.alive.withLock { $0 }
        let disposedBefore = disposed.withLock { $0 }
        for _ in 0..<50 {
            let report = await HostileContainer().validate(roots: [.async(\.failingWithKept)])
            #expect(report.errors.map(\.kind) == [.cycle], "\(report)")
        }
        // Every cached instance a validation kept was disposed before it returned.
        #expect(disposed.withLock { $0 } - disposedBefore == 50)
        #expect(Tracked.alive.withLock { $0 } <= aliveBefore)
        if let before, let after = threadCount() {
            #expect(after <= before + 4, "\(before) threads before, \(after) after")
        }
    }
}

extension HostileContainer {
    /// A chain `steps` long, that resolves with the depth limit's default.
    var chain: ParameterFactory<Int, Part> {
        self { $0 <= 1 ? Part("end") : Part("link", [self.chain($0 - 1)]) }
    }
    var longChain: Factory<Part> { self { self.chain(250) } }
    var onMainBelowAChain: ParameterFactory<Int, Part> {
        self { $0 <= 1 ? self.onMainChecked() : Part("link", [self.onMainBelowAChain($0 - 1)]) }
    }
    var onMainBelowALongChain: Factory<Part> { self { self.onMainBelowAChain(250) } }
}

/// Runs `body` on a thread with a stack of `size` bytes, and returns what it returns.
func onThread<T: Sendable>(stackSize size: Int, _ body: @escaping @Sendable () -> T) -> T {
    let result = Locked<T?>(nil)
    let thread = Thread { result.withLock { $0 = body() } }
    thread.stackSize = size
    thread.start()
    while result.withLock({ $0 }) == nil { usleep(1_000) }
    return result.withLock { $0 }!
}

extension ValidationSoundnessTests {
    @Test func theDepthLimitNotASmallStackDecidesWhatIsTooDeep() {
        // 512 KiB, macOS's default for a thread: a validating step takes more of it than a
        // plain resolve, and the validation moves to a larger stack instead of stopping.
        let report = onThread(stackSize: 512 << 10) { HostileContainer().validate(\.longChain) }
        #expect(report.isValid, "\(report)")
        #expect(report.graph.nodes.map(\.key) == ["chain", "longChain"])
    }

    @Test func aMainActorFactoryBelowAMoveToALargerStackIsABreachNeverRunOffIt() async throws {
        let child = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            ValidationReport.reportToParent {
                onThread(stackSize: 512 << 10) {
                    HostileContainer().validate(\.onMainBelowALongChain)
                }
            }
        }
        let report = try childReport(child)
        #expect(report.errors.map(\.kind) == [.isolationBreach], "\(report)")
        #expect(report.errors.first?.message.contains("moved for a larger stack") == true)
    }
}
