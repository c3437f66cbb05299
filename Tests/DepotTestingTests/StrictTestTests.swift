import Depot
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
                    + "factory StrictContainer.api<ProfileAPI>: nothing in the test registers "
                    + "it. Path: StrictContainer.profile<ProfileModel> -> "
                    + "StrictContainer.api<ProfileAPI>. Register a mock for it on the test's "
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
            #expect(StrictContainer.shared.analytics() == "live analytics")
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
            _ = container.greeting(1)
        } matching: {
            reportsLive($0, "StrictContainer.greeting<String>")
        }
        try await withKnownIssue {
            _ = try await container.database()
        } matching: {
            reportsLive($0, "StrictContainer.database<String>")
        }
        await withKnownIssue {
            _ = await MainActor.run { container.screen() }
        } matching: {
            reportsLive($0, "StrictContainer.screen<String>")
        }
        await withKnownIssue {
            // In a child task: the test's own issue still.
            await Task { _ = container.newLifetimeScope().api() }.value
        } matching: {
            reportsLive($0, "StrictContainer.api<ProfileAPI>")
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
            _ = container.makeChild().api()
        } matching: {
            reportsLive($0, "StrictContainer.api<ProfileAPI>")
        }
    }

    @Test(.strictApp) func injectedPropertiesAreWatched() {
        withKnownIssue {
            _ = ProfileScreen().api
        } matching: {
            reportsLive($0, "StrictContainer.api<ProfileAPI>")
        }
    }

    @Test(.strictApp) func lazilyInjectedPropertiesAreWatched() {
        withKnownIssue {
            _ = ProfileScreen().profile
        } matching: {
            reportsLive($0, "StrictContainer.api<ProfileAPI>")
        }
    }

    @Test func aLiveResolveOnAnotherThreadIsRecordedWhenTheTestEnds() async {
        let issues = StrictTestIssues(Test.current!)
        let container = StrictContainer()
        issues.test.watch(container)
        let thread = Thread { _ = container.api() }
        thread.start()
        while !thread.isFinished { usleep(1_000) }
        withKnownIssue {
            issues.end()
        } matching: {
            reportsLive($0, "StrictContainer.api<ProfileAPI>")
        }
    }

    @Test(.strictApp) func aClosureThatResolvesOnlySafeFactoriesIsStillLive() {
        withKnownIssue {
            _ = StrictContainer.shared.liveClient()
        } matching: {
            reportsLive($0, "StrictContainer.liveClient<String>")
        }
    }

    @Test func eachFactoryIsReportedOncePerTest() {
        let reports = Guarded([String]())
        let strict = StrictTest(name: "once") { message in reports.withLock { $0.append(message) } }
        let container = StrictContainer()
        strict.watch(container)
        for _ in 0..<3 {
            _ = container.api()
            _ = container.profile()
        }
        let factories = reports.withLock { $0 }.map { $0.components(separatedBy: ":")[0] }
        // `profile` resolves `api`: wiring, not reported.
        #expect(
            factories == [
                "Depot strict test once ran the live factory StrictContainer.api<ProfileAPI>"
            ])
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
            + "StrictContainer.api<ProfileAPI>. Path: "
            + "StrictContainer.api<ProfileAPI>. Code the test started outlived it (a "
            + "Thread, a DispatchQueue, a detached task, a callback): let it finish, or "
            + "await it, before the test returns."
        #expect(reports.withLock { $0 } == [expected])
    }
}

/// Many threads resolve from a watched container, its lifetime scopes and children while the
/// test ends: each factory is reported at most once as live and once as escaped (a safe one
/// too: after the end, every resolve escaped), whatever the order.
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
                    _ = scope.api()
                    _ = scope.greeting(round)
                    _ = container.formatter()
                }
            }
        }
        for _ in 0..<8 { started.wait() }
        strict.end()
        group.wait()
        _ = container.api()
        _ = container.greeting(0)
        let messages = reports.withLock { $0 }
        let live = messages.filter { $0.contains("ran the live factory") }
        let escaped = messages.filter { $0.contains("had ended when its container resolved") }
        #expect(live.count <= 2)
        #expect(
            escaped.map {
                $0.components(separatedBy: "resolved ")[1].components(separatedBy: ".")[1]
            }
            .sorted() == ["api<ProfileAPI>", "formatter<DateFormatter>", "greeting<String>"])
        #expect(live.count + escaped.count == messages.count)
    }
}

/// A container whose process-wide `shared` only the escape test below resolves from.
final class EscapeContainer: SharedContainer {
    @TaskLocal static var shared = EscapeContainer()
    let manager = ContainerManager()
}

extension EscapeContainer {
    var api: Factory<ProfileAPI> { self { LiveAPI() } }
}

@Suite struct StrictEscapeTests {
    @Test func aResolveFromTheProcesssContainerIsReportedWithoutATest() {
        let reports = Guarded([String]())
        let process = EscapeContainer.shared
        ProcessContainers.watch(process) { message in reports.withLock { $0.append(message) } }
        EscapeContainer.$shared.withValue(EscapeContainer()) {
            // In the test's task: its own container, not watched.
            _ = EscapeContainer.shared.api()
            // A thread has no task-locals: it reaches the process's container.
            let thread = Thread { _ = EscapeContainer.shared.api() }
            thread.start()
            while !thread.isFinished { usleep(1_000) }
        }
        ProcessContainers.release(process)
        _ = process.api()
        let expected: String =
            "Depot strict tests: EscapeContainer.api<ProfileAPI> was resolved from the "
            + "process's own EscapeContainer, not a test's. Path: "
            + "EscapeContainer.api<ProfileAPI>. No test can be named: the resolve "
            + "ran outside every test's task (a Thread, a DispatchQueue, a detached "
            + "task, a callback), where EscapeContainer.shared is the process's. Pass "
            + "the test's container along (read EscapeContainer.shared in the test and "
            + "resolve from that container there), or resolve before leaving the "
            + "test's task."
        #expect(reports.withLock { $0 } == [expected])
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
