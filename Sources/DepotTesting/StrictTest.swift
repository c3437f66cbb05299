@_spi(Testing) import Depot
import Foundation

/// A test that must not reach live code: its container reports each factory it runs that
/// nothing in the test replaced, and each resolve that reaches it after the test ended.
///
/// ``ContainerTrait/strict`` makes one for every test it runs and reports through Swift
/// Testing. An `XCTestCase` makes its own and reports through `XCTFail`:
///
/// ```swift
/// final class ProfileTests: XCTestCase {
///     private var strict: StrictTest!
///
///     override func setUp() {
///         Container.shared.manager.push()
///         Container.shared.api.register { MockAPI() }
///         strict = StrictTest(name: name) { XCTFail($0) }
///         strict.watch(Container.shared)
///     }
///
///     override func tearDown() {
///         strict.end()
///         Container.shared.manager.pop()
///     }
/// }
/// ```
///
/// What the test calls directly is the code under test: a resolve with no factory above it
/// that the test (or code it calls) makes itself, `Container.shared.profileModel()`, may run
/// live. What that code reaches is judged: each factory it resolves, and each that a property
/// wrapper (`@Injected`, `@LazyInjected`, `@WeakLazyInjected`, `@DynamicInjected`), `Lazy` or
/// `Provider` resolves, is reported if it runs live code. A factory counts as live when it runs
/// its declaration's closure, or one registered inside the container's `autoRegister()` (the
/// app's own): nothing registered it for the test, and no context override (`onTest`) replaces
/// it. A live factory whose closure resolves another factory that is not `.safeInTests` (a
/// view model built from its services) is wiring: what it resolves is judged, not it. Declare
/// a factory that is as safe in a test as in the app with `.safeInTests`. Each factory is
/// reported once per test; the resolve goes on and returns the live value.
///
/// ``end()`` lets go of the containers the test watched, so the process's `Container.shared`
/// is plain again for the tests after it; a lifetime scope or child made from them while the
/// test ran reports each resolve after the end as escaped.
public final class StrictTest: Sendable {
    /// The test's name, as reports give it.
    public let name: String
    private let report: @Sendable (String) -> Void
    private let state = Guarded(State())

    private struct State {
        var isEnded = false
        /// The factories reported already: live ones, and those resolved after the end.
        var reported: Set<String> = []
        /// The factories whose closures resolved another, not safe in tests: wiring, whose
        /// dependencies are judged instead.
        var wiring: Set<String> = []
        /// The containers ``watch(_:)`` watches, which ``end()`` lets go of.
        var watched: [Weak] = []
    }

    struct Weak {
        weak var manager: ContainerManager?
    }

    /// Makes a strict test named `name` that reports each problem through `report`, on the
    /// thread that resolved.
    public init(name: String, report: @escaping @Sendable (String) -> Void) {
        self.name = name
        self.report = report
    }

    /// Watches `container`, and the lifetime scopes and child containers made from it from now
    /// on. It replaces any other watch of the container.
    public func watch(_ container: some ManagedContainer) {
        container.manager.watcher = { [self] resolve in judge(resolve) }
        state.withLock { $0.watched.append(Weak(manager: container.manager)) }
    }

    /// Ends the test and stops watching the containers passed to ``watch(_:)``: they resolve
    /// as before the test. A lifetime scope or child made from them while the test ran still
    /// reports each resolve from now on as escaped.
    public func end() {
        end(watchingForEscapes: false)
    }

    /// Ends the test; `watchingForEscapes`, the containers passed to ``watch(_:)`` go on
    /// reporting each resolve as escaped (a trait's container, made for the test alone).
    func end(watchingForEscapes: Bool) {
        let watched = state.withLock { state in
            state.isEnded = true
            return watchingForEscapes ? [] : (state.watched, state.watched = []).0
        }
        for container in watched { container.manager?.watcher = nil }
    }

    private func judge(_ resolve: WatchedResolve) {
        let message = state.withLock { state -> String? in
            if state.isEnded {
                // The root of what escaped, once per factory: what its closure resolves
                // escaped with it.
                guard resolve.resolvedBy == nil, !resolve.isSafeInTests,
                    state.reported.insert("ended " + resolve.factory).inserted
                else { return nil }
                return StrictTest.escapedMessage(resolve, after: name)
            }
            if let parent = resolve.resolvedBy, !resolve.isSafeInTests {
                state.wiring.insert(parent)
            }
            // What the test calls directly is the code under test.
            guard resolve.ranLiveClosure, !resolve.isSafeInTests, !resolve.isDirectCall,
                !state.wiring.contains(resolve.factory),
                state.reported.insert(resolve.factory).inserted
            else { return nil }
            return StrictTest.liveMessage(resolve, in: name)
        }
        if let message { report(message) }
    }

    /// What a test that ran a live factory is told.
    static func liveMessage(_ resolve: WatchedResolve, in test: String) -> String {
        "Depot strict test \(test) ran the live factory \(resolve.factory): nothing in the test "
            + "registers it. Path: \(resolve.path.joined(separator: " -> ")). Register a mock "
            + "for it on the test's container (\(resolve.name).register { ... }, in the test or "
            + "its trait), or declare the factory .safeInTests if it is as safe in a test as "
            + "in the app."
    }

    /// What a resolve from a test's container after the test ended reports.
    static func escapedMessage(_ resolve: WatchedResolve, after test: String) -> String {
        "Depot strict test \(test) had ended when its container resolved \(resolve.factory). "
            + "Path: \(resolve.path.joined(separator: " -> ")). Code the test started outlived "
            + "it (a Thread, a DispatchQueue, a detached task, a callback): let it finish, or "
            + "await it, before the test returns."
    }

    /// What a resolve from the process's own container outside every test's task reports, on
    /// the strict test `test` that was running then.
    static func escapedMessage(_ resolve: WatchedResolve, container: String, while test: String)
        -> String
    {
        "Depot strict test \(test) was running when \(resolve.factory) was resolved from the "
            + "process's own \(container), not a test's. Path: "
            + "\(resolve.path.joined(separator: " -> ")). The resolve ran outside every test's "
            + "task (a Thread, a DispatchQueue, a detached task, a callback), where "
            + "\(container).shared is the process's; with strict tests running in parallel, "
            + "another of them may have started it. Pass the test's container along (read "
            + "\(container).shared in the test and resolve from that container there), or "
            + "resolve before leaving the test's task."
    }

    /// What a test without a container of its own that runs a live factory of the process's
    /// container reports, with `DEPOT_STRICT_TESTS=1`.
    static func unisolatedMessage(_ resolve: WatchedResolve, container: String, in test: String)
        -> String
    {
        "Depot strict tests (DEPOT_STRICT_TESTS=1): \(test) ran the live factory "
            + "\(resolve.factory) of the process's own \(container): the test has no container "
            + "of its own. Path: \(resolve.path.joined(separator: " -> ")). Give the test or its "
            + "suite the container trait, with a mock for it (\(resolve.name).register { ... }), "
            + "or declare the factory .safeInTests if it is as safe in a test as in the app."
    }
}

/// While strict tests run, watches the containers they leave as the process's own (a
/// `shared` read outside every test's task): a resolve there escaped a test, or comes from a
/// test without a container of its own.
enum ProcessContainers {
    private static let watched = Guarded([ObjectIdentifier: Int]())

    /// Watches `container` until as many ``release(_:)`` calls as these, handing each resolve
    /// and the container's type name to `report`.
    static func watch(
        _ container: some ManagedContainer,
        report: @escaping @Sendable (WatchedResolve, String) -> Void = {
            StrictTestIssues.process($0, container: $1)
        }
    ) {
        let id = ObjectIdentifier(container.manager)
        let isFirst = watched.withLock { watched in
            watched[id, default: 0] += 1
            return watched[id] == 1
        }
        guard isFirst else { return }
        let type = String(describing: Swift.type(of: container))
        container.manager.watcher = { resolve in report(resolve, type) }
    }

    /// Ends one ``watch(_:)`` of `container`: the last one lets it go.
    static func release(_ container: some ManagedContainer) {
        let id = ObjectIdentifier(container.manager)
        let isLast = watched.withLock { watched in
            watched[id, default: 1] -= 1
            if watched[id] == 0 { watched[id] = nil }
            return watched[id] == nil
        }
        if isLast { container.manager.watcher = nil }
    }
}

/// A value behind an `NSLock`.
// @unchecked Sendable: `value` is read and written only while `lock` is held.
final class Guarded<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
