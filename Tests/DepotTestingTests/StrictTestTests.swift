@_spi(Testing) import Depot
import Foundation
import Testing

@testable import DepotTesting

// Strict tests use containers of their own here: while a strict test runs, every resolve from
// the process's own container of its type is reported, and the other test targets of this
// process resolve from `Container.shared` in parallel.

protocol ProfileAPI: Sendable {
    var name: String { get }
}

struct LiveAPI: ProfileAPI {
    var name: String { "live" }
}

struct StubAPI: ProfileAPI {
    let name: String
}

struct ProfileModel: Sendable {
    let api: any ProfileAPI
}

final class StrictContainer: SharedContainer, ScopingContainer, AutoRegistering {
    @TaskLocal static var shared = StrictContainer()
    let manager = ContainerManager()

    func autoRegister() {
        // The app's own registration: as live as a declaration.
        analytics.register { "live analytics" }
    }
}

extension StrictContainer {
    var api: Factory<ProfileAPI> { self { LiveAPI() } }
    var profile: Factory<ProfileModel> { self { ProfileModel(api: self.api()) } }
    var formatter: Factory<DateFormatter> { self { DateFormatter() }.safeInTests.cached }
    var analytics: Factory<String> { self { "declared analytics" } }
    var clock: Factory<String> { self { "live clock" }.onTest { "test clock" } }
    var greeting: ParameterFactory<Int, String> { self { "live greeting \($0)" } }
    var database: AsyncFactory<String> { self { "live database" }.cached }
    @MainActor var screen: Factory<String> { self { @MainActor in "live screen" } }
    var plugins: Factory<[String]> { contributions() }
    var livePlugin: Factory<String> { self { "live plugin" } }
    /// A live client that resolves only a factory safe in tests: still live itself.
    var liveClient: Factory<String> { self { "client at \(self.formatter().dateFormat ?? "")" } }
    /// A view model whose only dependency is safe in tests.
    var headerViewModel: Factory<HeaderViewModel> {
        self { HeaderViewModel(formatter: self.formatter()) }
    }
    /// An async factory that resolves another: wiring for it.
    var databaseReport: AsyncFactory<String> { self { try await "report of " + self.database() } }
}

struct HeaderViewModel: Sendable {
    let formatter: DateFormatter
}

/// A FactoryKit-style view model: its dependencies resolved on first use.
final class LazyProfileViewModel {
    @LazyInjected(\StrictContainer.api) var api
    @LazyInjected(\StrictContainer.analytics) var analytics

    var title: String { "\(analytics) for \(api.name)" }
}

/// App code that locates its service itself.
struct ProfileLoader {
    func load() -> String { StrictContainer.shared.api().name }
}

/// A live client reached by injection.
final class ClientScreen {
    @Injected(\StrictContainer.liveClient) var client
}

extension Trait where Self == ContainerTrait<StrictContainer> {
    static var strictApp: Self {
        ContainerTrait(shared: StrictContainer.$shared, container: StrictContainer()).strict
    }
}

/// Resolves with `@Injected` and `@LazyInjected`, as a type a test makes would.
final class ProfileScreen {
    @Injected(\StrictContainer.api) var api
    @LazyInjected(\StrictContainer.profile) var profile
}

/// Whether `issue` is a strict test's report of the live factory `factory`.
func reportsLive(_ issue: Issue, _ factory: String) -> Bool {
    issue.comments.contains { $0.rawValue.contains("ran the live factory \(factory):") }
}

@Suite struct StrictTestTests {
    @Test(.strictApp) func aForgottenMockIsReportedWithThePathAndTheFix() {
        withKnownIssue {
            #expect(StrictContainer.shared.profile().api.name == "live")
        } matching: { issue in
            issue.comments.map(\.rawValue) == [
                "Depot strict test aForgottenMockIsReportedWithThePathAndTheFix() ran the live "
                    + "factory StrictContainer.api<any ProfileAPI>: nothing in the test registers "
                    + "it. Path: StrictContainer.profile<ProfileModel> -> "
                    + "StrictContainer.api<any ProfileAPI>. Register a mock for it on the test's "
                    + "container (api.register { ... }, in the test or its trait), or declare "
                    + "the factory .safeInTests if it is as safe in a test as in the app."
            ]
        }
    }

    @Test(.strictApp { $0.api.register { StubAPI(name: "mock") } })
    func registeredMocksSafeFactoriesAndContextsAreNotReported() async {
        // The profile's own closure runs too, as wiring: only `api` reaches live code, and it
        // is mocked.
        #expect(StrictContainer.shared.profile().api.name == "mock")
        _ = StrictContainer.shared.formatter()
        #expect(StrictContainer.shared.clock() == "test clock")
    }

    @Test(.strictApp) func aFactoryRegisteredInAutoRegisterIsLive() {
        withKnownIssue {
            #expect(StrictContainer.shared.analytics.lazy() == "live analytics")
        } matching: {
            reportsLive($0, "StrictContainer.analytics<String>")
        }
    }

    @Test(.strictApp { $0.analytics.register { "spy" } })
    func aTestsRegistrationReplacesAutoRegistersAndIsNotReported() {
        #expect(StrictContainer.shared.analytics() == "spy")
    }

    @Test(.strictApp) func everyKindOfResolveIsWatched() async throws {
        let container = StrictContainer.shared
        withKnownIssue {
            _ = container.greeting.provider(1)
        } matching: {
            reportsLive($0, "StrictContainer.greeting<String>")
        }
        try await withKnownIssue {
            _ = try await container.databaseReport()
        } matching: {
            reportsLive($0, "StrictContainer.database<String>")
        }
        await withKnownIssue {
            _ = await MainActor.run { container.screen.provider() }
        } matching: {
            reportsLive($0, "StrictContainer.screen<String>")
        }
        await withKnownIssue {
            // In a child task: the test's own issue still.
            await Task { _ = container.newLifetimeScope().api.lazy() }.value
        } matching: {
            reportsLive($0, "StrictContainer.api<any ProfileAPI>")
        }
    }

    @Test(.strictApp) func childContainersInjectionAndCollectionElementsAreWatched() {
        let container = StrictContainer.shared
        container.contribute(\.livePlugin, to: \.plugins)
        withKnownIssue {
            #expect(container.plugins() == ["live plugin"])
        } matching: {
            reportsLive($0, "StrictContainer.livePlugin<String>")
        }
        withKnownIssue {
            _ = container.makeChild().profile()
        } matching: {
            reportsLive($0, "StrictContainer.api<any ProfileAPI>")
        }
    }

    /// The README's shape: a type the test makes, whose `@Injected` API is not mocked.
    @Test(.strictApp) func injectedPropertiesAreWatched() {
        withKnownIssue {
            _ = ProfileScreen().api
        } matching: {
            reportsLive($0, "StrictContainer.api<any ProfileAPI>")
        }
    }

    @Test(.strictApp) func lazilyInjectedPropertiesAreWatched() {
        withKnownIssue {
            _ = ProfileScreen().profile
        } matching: {
            reportsLive($0, "StrictContainer.api<any ProfileAPI>")
        }
    }

    @Test func aLiveResolveOnAnotherThreadIsRecordedWhenTheTestEnds() async {
        let issues = StrictTestIssues(Test.current!)
        let container = StrictContainer()
        issues.test.watch(container)
        let thread = Thread { _ = container.profile() }
        thread.start()
        while !thread.isFinished { usleep(1_000) }
        withKnownIssue {
            issues.end()
        } matching: {
            reportsLive($0, "StrictContainer.api<any ProfileAPI>")
        }
    }

    @Test(.strictApp) func aLiveClosureThatResolvesOnlySafeFactoriesIsReportedWhereReached() {
        withKnownIssue {
            _ = ClientScreen().client
        } matching: {
            reportsLive($0, "StrictContainer.liveClient<String>")
        }
    }

    @Test(.strictApp) func aViewModelWhoseOnlyDependencyIsSafeInTestsReportsNothing() {
        _ = StrictContainer.shared.headerViewModel()
        _ = StrictContainer.shared.liveClient()
    }

    @Test(.strictApp { $0.api.register { StubAPI(name: "mock") } })
    func aViewModelWithEveryLazyDependencyMockedReportsNothing() {
        StrictContainer.shared.analytics.register { "mock analytics" }
        #expect(LazyProfileViewModel().title == "mock analytics for mock")
    }

    @Test(.strictApp { $0.api.register { StubAPI(name: "mock") } })
    func aViewModelWithOneLazyDependencyForgottenReportsItWhenFirstUsed() {
        let model = LazyProfileViewModel()
        #expect(model.api.name == "mock")
        withKnownIssue {
            #expect(model.analytics == "live analytics")
        } matching: { issue in
            reportsLive(issue, "StrictContainer.analytics<String>")
                && issue.comments.count == 1
        }
    }

    @Test(.strictApp) func aViewModelResolvedByTheTestReportsItsAPINotItself() {
        withKnownIssue {
            _ = StrictContainer.shared.profile()
        } matching: { issue in
            reportsLive(issue, "StrictContainer.api<any ProfileAPI>")
                && !reportsLive(issue, "StrictContainer.profile<ProfileModel>")
        }
    }

    @Test(.strictApp) func aServiceAppCodeLocatesItselfIsADirectCallAndNotReported() {
        #expect(ProfileLoader().load() == "live")
    }

    @Test func eachFactoryIsReportedOncePerTest() {
        let reports = Guarded([String]())
        let strict = StrictTest(name: "once") { message in reports.withLock { $0.append(message) } }
        let container = StrictContainer()
        strict.watch(container)
        for _ in 0..<3 {
            _ = container.api.provider()
            _ = container.profile()
        }
        let factories = reports.withLock { $0 }.map { $0.components(separatedBy: ":")[0] }
        // `profile` resolves `api`: wiring, not reported.
        #expect(
            factories == [
                "Depot strict test once ran the live factory StrictContainer.api<any ProfileAPI>"
            ])
    }

    @Test func theContainerItWatchedIsPlainAfterTheEnd() {
        let reports = Guarded([String]())
        let strict = StrictTest(name: "ended") { message in reports.withLock { $0.append(message) }
        }
        let container = StrictContainer()
        strict.watch(container)
        strict.end()
        _ = container.api()
        _ = container.profile()
        #expect(container.manager.watcher == nil)
        #expect(reports.withLock { $0 }.isEmpty)
    }

    @Test func aResolveAfterTheTestEndedIsReportedAsEscaped() {
        let reports = Guarded([String]())
        let strict = StrictTest(name: "showsUsers()") { message in
            reports.withLock { $0.append(message) }
        }
        let container = StrictContainer()
        container.api.register { StubAPI(name: "mock") }
        strict.watch(container)
        let scope = container.newLifetimeScope()
        strict.end()
        let thread = Thread { _ = scope.api() }
        thread.start()
        while !thread.isFinished { usleep(1_000) }
        let expected: String =
            "Depot strict test showsUsers() had ended when its container resolved "
            + "StrictContainer.api<any ProfileAPI>. Path: "
            + "StrictContainer.api<any ProfileAPI>. Code the test started outlived it (a "
            + "Thread, a DispatchQueue, a detached task, a callback): let it finish, or "
            + "await it, before the test returns."
        #expect(reports.withLock { $0 } == [expected])
    }
}

/// Many threads resolve from a watched container, its lifetime scopes and children while the
/// test ends: each factory is reported at most once as live and, as the root of a resolve, once
/// as escaped (a safe one never), whatever the order.
@Suite struct StrictStressTests {
    @Test func eightThreadsResolvingWhileTheTestEndsReportEachFactoryOncePerKind() {
        let reports = Guarded([String]())
        let strict = StrictTest(name: "stress") { message in reports.withLock { $0.append(message) }
        }
        let container = StrictContainer()
        strict.watch(container)
        let started = DispatchSemaphore(value: 0)
        let group = DispatchGroup()
        for index in 0..<8 {
            DispatchQueue.global().async(group: group) {
                let scope = index % 2 == 0 ? container.newLifetimeScope() : container.makeChild()
                started.signal()
                for round in 0..<500 {
                    _ = scope.api.provider()
                    _ = scope.greeting.provider(round)
                    _ = scope.profile()
                    _ = scope.formatter()
                }
            }
        }
        for _ in 0..<8 { started.wait() }
        let late = container.newLifetimeScope()
        strict.end()
        group.wait()
        // A scope made while the test ran reports after its end; the container, let go of,
        // does not.
        _ = late.api.provider()
        _ = late.greeting.provider(0)
        _ = late.profile()
        _ = late.formatter()
        _ = container.api()
        let messages = reports.withLock { $0 }
        let live = messages.filter { $0.contains("ran the live factory") }
        let escaped = messages.filter { $0.contains("had ended when its container resolved") }
        #expect(live.count <= 2)
        #expect(
            escaped.map {
                $0.components(separatedBy: "resolved ")[1].components(separatedBy: ".")[1]
            }
            .sorted() == ["api<any ProfileAPI>", "greeting<String>", "profile<ProfileModel>"])
        #expect(live.count + escaped.count == messages.count)
    }
}

/// A container whose process-wide `shared` only the escape tests below resolve from.
final class EscapeContainer: SharedContainer {
    @TaskLocal static var shared = EscapeContainer()
    let manager = ContainerManager()
}

extension EscapeContainer {
    var api: Factory<ProfileAPI> { self { LiveAPI() } }
    var profile: Factory<ProfileModel> { self { ProfileModel(api: self.api()) } }
    var formatter: Factory<DateFormatter> { self { DateFormatter() }.safeInTests }
}

/// Runs `body` on a thread of its own, with no task-locals: as a callback would.
func onThread(_ body: @escaping @Sendable () -> Void) {
    let thread = Thread(block: body)
    thread.start()
    while !thread.isFinished { usleep(1_000) }
}

@Suite(.serialized) struct StrictEscapeTests {
    @Test func anEscapeIsReportedOnceAtTheLineOfTheStrictTestRunning() {
        let running = Guarded([StrictTestIssues]())
        let issues = StrictTestIssues(Test.current!, running: running)
        let process = EscapeContainer.shared
        ProcessContainers.watch(process) {
            StrictTestIssues.process($0, container: $1, running: running)
        }
        EscapeContainer.$shared.withValue(EscapeContainer()) {
            // In the test's task: its own container, not watched.
            _ = EscapeContainer.shared.api()
            // A thread has no task-locals: it reaches the process's container. The root of
            // each resolve is reported, once; the safe formatter never.
            onThread {
                for _ in 0..<3 {
                    _ = EscapeContainer.shared.profile()
                    _ = EscapeContainer.shared.formatter()
                }
            }
        }
        ProcessContainers.release(process)
        _ = process.api()
        let expected: String =
            "Depot strict test anEscapeIsReportedOnceAtTheLineOfTheStrictTestRunning() was "
            + "running when EscapeContainer.profile<ProfileModel> was resolved from the "
            + "process's own EscapeContainer, not a test's. Path: "
            + "EscapeContainer.profile<ProfileModel>. The resolve ran outside every test's "
            + "task (a Thread, a DispatchQueue, a detached task, a callback), where "
            + "EscapeContainer.shared is the process's; with strict tests running in parallel, "
            + "another of them may have started it. Pass the test's container along (read "
            + "EscapeContainer.shared in the test and resolve from that container there), or "
            + "resolve before leaving the test's task."
        let seen = Guarded([String]())
        let line = Test.current!.sourceLocation
        withKnownIssue {
            issues.end()
        } matching: { issue in
            seen.withLock { $0 += issue.comments.map(\.rawValue) }
            return issue.sourceLocation == line
        }
        #expect(seen.withLock { $0 } == [expected])
    }

    @Test func aTestWithoutTheTraitIsStrictWhenTheProcessIs() {
        let running = Guarded([StrictTestIssues]())
        let process = EscapeContainer.shared
        ProcessContainers.watch(process) {
            StrictTestIssues.process($0, container: $1, running: running, isOnForProcess: true)
        }
        defer { ProcessContainers.release(process) }
        // What is safe in tests: nothing.
        _ = process.formatter()
        let seen = Guarded([String]())
        let line = Test.current!.sourceLocation
        withKnownIssue {
            for _ in 0..<2 {
                _ = process.profile()
                _ = process.api()
            }
        } matching: { issue in
            seen.withLock { $0 += issue.comments.map(\.rawValue) }
            return issue.sourceLocation == line
        }
        let expected: String =
            "Depot strict tests (DEPOT_STRICT_TESTS=1): aTestWithoutTheTraitIsStrictWhenTheProcessIs() "
            + "ran the live factory EscapeContainer.api<any ProfileAPI> of the process's own "
            + "EscapeContainer: the test has no container of its own. Path: "
            + "EscapeContainer.profile<ProfileModel> -> EscapeContainer.api<any ProfileAPI>. Give the "
            + "test or its suite the container trait, with a mock for it (api.register { ... }), "
            + "or declare the factory .safeInTests if it is as safe in a test as in the app."
        #expect(seen.withLock { $0 } == [expected])
    }
}

extension Trait where Self == ContainerTrait<StrictContainer> {
    /// Not strict: strict inside a strict suite.
    static var plainApp: Self {
        ContainerTrait(shared: StrictContainer.$shared, container: StrictContainer())
    }
}

/// A strict suite whose tests add mocks with a trait of their own: still strict.
@Suite(.strictApp) struct StrictSuiteTests {
    @Test(.plainApp { $0.api.register { StubAPI(name: "mock") } })
    func aTestsOwnContainerTraitInAStrictSuiteIsStrict() {
        #expect(StrictContainer.shared.profile().api.name == "mock")
        withKnownIssue {
            _ = StrictContainer.shared.analytics.lazy()
        } matching: {
            reportsLive($0, "StrictContainer.analytics<String>")
        }
    }
}

/// 200 strict tests in parallel, each with its own mock, resolving in child tasks: none sees
/// another's mock, and none reaches live code (that would fail the test).
@Suite struct StrictParallelTests {
    @Test(.strictApp, arguments: 0..<200)
    func eachTestSeesOnlyItsOwnMock(index: Int) async {
        StrictContainer.shared.api.register { StubAPI(name: "mock \(index)") }
        let names = await withTaskGroup(of: String.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    await Task.yield()
                    return StrictContainer.shared.api().name
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(names == Array(repeating: "mock \(index)", count: 8))
    }
}

/// How a suite or a test names the strict trait: compiled here, not run, since a strict test on
/// `Container` watches the process's `Container.shared`, which the other test targets use.
enum StrictTraitSpellings {
    @Suite(.container.strict, .disabled("only compiled: the spelling of the strict trait"))
    struct StrictSuite {
        @Test(.container.strict { $0.widget.register { Widget("mock") } })
        func strictTestWithAMock() {
            #expect(Container.shared.widget().name == "mock")
        }
    }
}
