import Depot
import Testing

/// A Swift Testing trait that runs each test with a fresh shared container and singletons of its
/// own, so tests that register mocks can run in parallel.
///
/// ```swift
/// @Test(.container { $0.api.register { MockAPI() } })
/// func showsUsers() { ... }
///
/// @Suite(.container)
/// struct ProfileTests { ... }   // every test gets its own Container.shared
/// ```
///
/// For a container of your own, declare its `shared` as a task-local and build the trait from it:
///
/// ```swift
/// final class ServiceContainer: SharedContainer {
///     @TaskLocal static var shared = ServiceContainer()
///     let manager = ContainerManager()
/// }
/// extension Trait where Self == ContainerTrait<ServiceContainer> {
///     static var services: Self {
///         ContainerTrait(shared: ServiceContainer.$shared, container: ServiceContainer())
///     }
/// }
/// ```
public struct ContainerTrait<C: ManagedContainer>: TestTrait, SuiteTrait, TestScoping {
    /// Registers what a test needs on its fresh container; it may be isolated to an actor
    /// (`{ @MainActor in ... }`) and may await.
    public typealias Transform = @Sendable @isolated(any) (C) async -> Void

    private let shared: TaskLocal<C>
    private let makeContainer: @Sendable () -> C
    private let transform: Transform?
    private var isStrict = false

    /// Makes a trait that sets `shared` to a fresh container for each test.
    ///
    /// - Parameters:
    ///   - shared: the container type's task-local `shared` (its projected value, `C.$shared`).
    ///   - container: makes the fresh container; evaluated once per test.
    ///   - transform: runs with the fresh container before the test: register mocks here.
    public init(
        shared: TaskLocal<C>, container: @autoclosure @escaping @Sendable () -> C,
        transform: Transform? = nil
    ) {
        self.shared = shared
        self.makeContainer = container
        self.transform = transform
    }

    /// The same trait, with `transform` registering what each test needs on its fresh container
    /// (after the trait's own transform, if it has one).
    ///
    /// ```swift
    /// @Test(.container { $0.api { MockAPI() } })
    /// @Test(.services { @MainActor in $0.viewModel { MockViewModel() } })
    /// ```
    public func callAsFunction(transform: @escaping Transform) -> Self {
        let first = self.transform
        var trait = ContainerTrait(
            shared: shared, container: makeContainer(),
            transform: { container in
                await first?(container)
                await transform(container)
            })
        trait.isStrict = isStrict
        return trait
    }

    /// The same trait, strict: each test fails with an issue for every factory it runs that
    /// nothing in the test replaced (see ``StrictTest``), and for every resolve that reaches
    /// the process's own container, or its container after it ended, while strict tests run.
    ///
    /// ```swift
    /// @Suite(.container.strict)
    /// struct ProfileTests { ... }
    ///
    /// @Test(.container.strict { $0.api.register { MockAPI() } })
    /// func showsUsers() async { ... }
    /// ```
    ///
    /// Every `ContainerTrait` test is strict, in every test target of the process, when the
    /// environment has `DEPOT_STRICT_TESTS=1` (a test plan's environment variables, or
    /// `DEPOT_STRICT_TESTS=1 swift test`).
    public var strict: Self {
        var trait = self
        trait.isStrict = true
        return trait
    }

    /// Applied to a suite, the trait reaches each of its tests.
    public var isRecursive: Bool { true }

    /// Runs `function` with a fresh container as `shared` and empty singletons, then lets go of
    /// them on the main actor.
    ///
    /// The test's container and singletons (and the mocks they keep) are released after the
    /// test, on the main actor: a mock whose type is isolated to it ends there, as its
    /// `deinit` expects. What the test itself still holds is released where it lets go of it.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard !test.isSuite else {
            try await function()
            return
        }
        let made = TestInstances<C>(singletons: Scope.singleton.clone())
        // A strict trait around this one (a strict suite's) makes this test strict too: its
        // container is watched for the same test, which that trait ends.
        let enclosing = StrictTestIssues.current
        let strict =
            enclosing
            ?? (isStrict || StrictTestIssues.isOnForProcess ? StrictTestIssues(test) : nil)
        let owned = enclosing == nil ? strict : nil
        // Read outside the test's binding: the process's own container, while strict tests run.
        let outside = owned == nil ? nil : shared.get()
        if let outside { ProcessContainers.watch(outside) }
        defer { if let outside { ProcessContainers.release(outside) } }
        do {
            try await Scope.$singleton.withValue(made.singletons!) {
                made.container = makeContainer()
                strict?.test.watch(made.container!)
                await transform?(made.container!)
                try await shared.withValue(made.container!) {
                    try await StrictTestIssues.$current.withValue(strict) {
                        try await function()
                    }
                }
            }
        } catch {
            owned?.end()
            await made.release()
            throw error
        }
        owned?.end()
        await made.release()
    }
}

/// A test's container and singletons, held by the trait alone once the test has run, so that
/// `release()` lets go of them on the main actor.
// @unchecked Sendable: set before the test and emptied after it; the trait awaits each step,
// so no two accesses overlap.
private final class TestInstances<C>: @unchecked Sendable {
    var singletons: Scope.Singleton?
    var container: C?

    init(singletons: Scope.Singleton) {
        self.singletons = singletons
    }

    @MainActor func release() {
        (container, singletons) = (nil, nil)
    }
}

extension Trait where Self == ContainerTrait<Container> {
    /// Runs each test with a fresh `Container.shared` and singletons of its own.
    public static var container: Self {
        ContainerTrait(shared: Container.$shared, container: Container())
    }
}
