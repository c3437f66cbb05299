import Depot
import DepotTesting
import Foundation
import Testing

/// A container of validation's own fixtures: a graph with problems, and a clean one.
final class ValidatedContainer: SharedContainer, ScopingContainer {
    static let shared = ValidatedContainer()
    let manager = ContainerManager()
    init() {}
}

final class Part: @unchecked Sendable {
    let name: String
    let children: [Any]
    init(_ name: String, _ children: [Any] = []) {
        self.name = name
        self.children = children
    }
}

/// Counts the instances alive and disposed, to check that validation keeps nothing.
final class Tracked: @unchecked Sendable {
    static let alive = Locked(0)
    init() { Self.alive.withLock { $0 += 1 } }
    deinit { Self.alive.withLock { $0 -= 1 } }
}

@globalActor actor ValidationActor {
    static let shared = ValidationActor()
}

extension ValidatedContainer {
    // Clean: a root, a cached service, a singleton, a unique leaf.
    var app: Factory<Part> {
        self { Part("app", [self.service(), self.settings(), self.leaf()]) }
    }
    var service: Factory<Part> { self { Part("service") }.cached }
    var settings: Factory<Part> { self { Part("settings") }.singleton }
    var leaf: Factory<Part> { self { Part("leaf") } }

    // Three independent problems under three roots.
    var cycleA: Factory<Part> { self { Part("a", [self.cycleB()]) } }
    var cycleB: Factory<Part> { self { Part("b", [self.cycleA()]) } }
    var missing: Factory<Part?> { promised() }
    var needsMissing: Factory<Part> { self { Part("needs", [self.missing() as Any]) } }
    var request: Factory<Part> { self { Part("request") }.cached }
    var keeper: Factory<Part> { self { Part("keeper", [self.request()]) }.singleton }

    // A root whose second dependency a problem stops before it is reached.
    var stoppedEarly: Factory<Part> { self { Part("early", [self.cycleA(), self.leaf()]) } }

    // Deeper than any limit.
    var endless: ParameterFactory<Int, Part> { self { Part("n", [self.endless($0 + 1)]) } }
    var endlessRoot: Factory<Part> { self { self.endless(0) } }

    // Short-lived kept by a longer-lived owner: a warning.
    var cachedKeepsUnique: Factory<Part> { self { Part("cached", [self.leaf()]) }.cached }

    // Isolation: a factory on one actor resolved by a factory on another.
    // Declared as a property on those actors would declare them: the isolation is given here.
    var onMain: Factory<Part> { self({ Part("main") }, isolation: MainActor.shared) }
    var onOtherActor: Factory<Part> {
        self({ Part("other", [self.onMain()]) }, isolation: ValidationActor.shared)
    }

    // Instances validation must not keep.
    var trackedCached: Factory<Tracked> { self { Tracked() }.cached }
    var trackedSingleton: Factory<Tracked> { self { Tracked() }.singleton }
    var trackedShared: Factory<Tracked> { self { Tracked() }.shared }
    var trackedRoot: Factory<Part> {
        self {
            Part("root", [self.trackedCached(), self.trackedSingleton(), self.trackedShared()])
        }
    }
    var disposed: Factory<Tracked> { self { Tracked() }.cached.onDispose { _ in } }

    // Async: a cycle through async factories.
    var asyncA: AsyncFactory<Part> { self { Part("asyncA", [try await self.asyncB()]) } }
    var asyncB: AsyncFactory<Part> { self { Part("asyncB", [try await self.asyncA()]) } }
    var asyncClean: AsyncFactory<Part> { self { Part("asyncClean", [self.leaf()]) }.cached }
    var asyncSyncCycle: AsyncFactory<Part> { self { Part("asyncSync", [self.cycleA()]) } }

    // A cycle through a Lazy resolved inside the factory.
    var lazyLoop: Factory<Part> { self { Part("lazy", [self.lazyLoop.lazy.value]) } }
}

/// A container whose `shared` a test binds, as the `.container` trait does.
final class TaskLocalValidatedContainer: SharedContainer {
    @TaskLocal static var shared = TaskLocalValidatedContainer()
    let manager = ContainerManager()
}

extension TaskLocalValidatedContainer {
    var throughShared: Factory<Part> {
        self { Part("through", [TaskLocalValidatedContainer.shared.sharedLeaf()]) }
    }
    var sharedLeaf: Factory<Part> { self { Part("leaf") } }
}

@Suite struct ValidationTests {
    @Test func cleanGraphHasNoProblems() {
        let report = ValidatedContainer().validate(\.app)
        #expect(report.problems.isEmpty, "\(report)")
        #expect(report.isValid)
        #expect(report.unchecked.isEmpty)
        #expect(
            report.graph.edges.map { "\($0.from) -> \($0.to)" }.contains(
                "ValidatedContainer.app<Part> -> ValidatedContainer.service<Part>"))
    }

    @Test func captiveLifetimeScopeInstanceIsAnErrorInEveryBuild() {
        let root = ValidatedContainer()
        let scope = root.newLifetimeScope()
        // The singleton keeper resolves the scope's cached request and keeps it.
        let report = scope.validate(\.keeper)
        let captive = report.errors.first { $0.kind == .captiveDependency }
        #expect(captive != nil, "\(report)")
        #expect(
            captive?.path == [
                "ValidatedContainer.keeper<Part>", "ValidatedContainer.request<Part>",
            ])
        #expect(captive?.fix.contains("Provider") == true)
    }

    @Test func shortLivedCaptiveIsAWarningWhateverTheSetting() {
        let container = ValidatedContainer()
        #expect(!container.manager.reportsShortLivedCaptives)
        let report = container.validate(\.cachedKeepsUnique)
        #expect(report.isValid, "\(report)")
        #expect(report.warnings.map(\.kind) == [.shortLivedCaptive])
        #expect(report.warnings.first?.severity == .warning)
    }

    #if DEBUG
        @Test func isolationBreachIsLoggedOnceAndTheResolveGoesOn() {
            let container = ValidatedContainer()
            let logged = Locked<[String]>([])
            container.manager.logger = { line in logged.withLock { $0.append(line) } }
            let done = Locked(0)
            let thread = Thread {
                _ = container.onMain()
                _ = container.onMain()
                done.withLock { $0 += 1 }
            }
            thread.start()
            while done.current == 0 { usleep(100) }
            #expect(logged.current.count == 1, "\(logged.current)")
            #expect(
                logged.current.first?.hasPrefix(
                    "Depot: ValidatedContainer.onMain<Part> is declared on MainActor and was resolved "
                        + "off it, on a thread outside any task") == true)
        }

        @Test func aMainActorFactoryResolvedOnTheMainActorIsNotReported() async {
            let container = ValidatedContainer()
            let logged = Locked<[String]>([])
            container.manager.logger = { line in logged.withLock { $0.append(line) } }
            // On Linux, a process with an async main drains the main queue off the main thread.
            let name = await MainActor.run { container.onMain().name }
            #expect(name == "main")
            #expect(logged.current.isEmpty, "\(logged.current)")
        }

        @Test @ValidationActor func isolationBreachFromACustomGlobalActorIsLogged() {
            let container = ValidatedContainer()
            let logged = Locked<[String]>([])
            container.manager.logger = { line in logged.withLock { $0.append(line) } }
            #expect(container.onMain().name == "main")
            #expect(logged.current.first?.contains("resolved off it, in a task") == true)
        }

        @Test func isolationBreachFromADetachedTaskIsLogged() async {
            let container = ValidatedContainer()
            let logged = Locked<[String]>([])
            container.manager.logger = { line in logged.withLock { $0.append(line) } }
            let name = await Task.detached { container.onMain().name }.value
            #expect(name == "main")
            #expect(logged.current.first?.contains("resolved off it, in a task") == true)
        }
    #endif

    @Test func registeredMocksApply() {
        let container = ValidatedContainer()
        container.cycleB.register { Part("mock") }
        container.missing.register { Part("registered") }
        let report = container.validate(\.cycleA, \.needsMissing)
        #expect(report.isValid, "\(report)")
    }

    @Test func validateWithNoRootsChecksWhatWasResolvedWhileRecording() {
        let container = ValidatedContainer()
        container.manager.isRecordingDependencies = true
        container.missing.register { Part("registered") }
        _ = container.needsMissing()
        _ = container.cachedKeepsUnique()
        container.missing.reset()
        let report = container.validate()
        // As declared: `missing` and `needsMissing` now miss the promise, and
        // `cachedKeepsUnique` is cached.
        #expect(
            report.errors.map(\.path.first) == [
                "ValidatedContainer.missing<Optional<Part>>",
                "ValidatedContainer.needsMissing<Part>",
            ], "\(report)")
        #expect(report.errors.map(\.kind) == [.missingRegistration, .missingRegistration])
        #expect(report.warnings.map(\.kind) == [.shortLivedCaptive], "\(report)")
        container.manager.removeRecordedDependencies()
        // Nothing is left to check, and the report says so.
        #expect(container.validate().problems.map(\.kind) == [.nothingChecked])
    }

    @Test func recordingNothingKeepsNothingForValidation() {
        weak var released: ValidatedContainer?
        do {
            let container = ValidatedContainer()
            released = container
            _ = container.cachedKeepsUnique()
            #expect(container.validate().problems.map(\.kind) == [.nothingChecked])
        }
        #expect(released == nil)
    }

    @Test func validationKeepsNothingAndChangesNothing() {
        let container = ValidatedContainer()
        let cached = container.trackedCached()
        let disposals = Locked(0)
        let disposing = ValidatedContainer()
        disposing.disposed.onDispose { _ in disposals.withLock { $0 += 1 } }.register { Tracked() }
        _ = disposing.disposed()
        // Other tests make this container type's singletons meanwhile: compare what is this
        // test's own.
        func kept(in container: ValidatedContainer) -> [String] {
            let instances = container.manager.cachedInstances()
            return (instances["cached"] ?? [])
                + (instances["singleton"] ?? []).filter { $0.hasPrefix("tracked") }
                + (instances["shared"] ?? [])
        }
        let before = kept(in: container)
        let report = container.validate(\.trackedRoot)
        #expect(report.isValid, "\(report)")
        #expect(kept(in: container) == before)
        #expect(before == ["trackedCached<Tracked>"])
        #expect(container.trackedCached() === cached)
        let reportOfDisposing = disposing.validate(\.disposed)
        #expect(reportOfDisposing.isValid)
        #expect(disposals.current == 0)
        #expect(disposing.manager.cachedInstances()["cached"]?.count == 1)
    }

    @Test func instancesMadeByValidationAreReleased() {
        let container = ValidatedContainer()
        weak var made: Tracked?
        container.trackedCached.register {
            let tracked = Tracked()
            made = tracked
            return tracked
        }
        let report = container.validate(\.trackedRoot)
        #expect(report.isValid)
        #expect(made == nil)
        #expect(container.manager.cachedInstances()["cached"] == nil)
    }

    @Test func asyncCycleIsReported() async {
        let report = await ValidatedContainer().validate(roots: [
            .async(\.asyncA), .async(\.asyncClean),
        ])
        #expect(report.errors.map(\.kind) == [.cycle], "\(report)")
        #expect(
            report.errors.first?.message
                == "Depot: circular dependency: ValidatedContainer.asyncA<Part> -> "
                + "ValidatedContainer.asyncB<Part> -> ValidatedContainer.asyncA<Part>")
        #expect(report.graph.nodes.map(\.description).contains("ValidatedContainer.leaf<Part>"))
    }

    @Test func validationBesideResolvesOnEightThreads() {
        let container = ValidatedContainer()
        let stop = Locked(false)
        let resolved = Locked(0)
        let threads = (0..<8).map { _ in
            Thread {
                while !stop.current {
                    _ = container.app()
                    _ = container.service()
                    resolved.withLock { $0 += 1 }
                }
            }
        }
        threads.forEach { $0.start() }
        // The validations run beside the threads' resolves: once the threads resolve. Waited
        // for before the validations, not after the stop, which a thread that had not started
        // yet would see first, and never resolve.
        while resolved.current == 0 { usleep(100) }
        for _ in 0..<20 {
            let report = container.validate(\.app, \.cachedKeepsUnique, \.needsMissing)
            #expect(report.errors.map(\.kind) == [.missingRegistration])
        }
        stop.withLock { $0 = true }
        #expect(container.manager.cachedInstances()["cached"] == ["service<Part>"])
    }
}
