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
        return ContainerTrait(
            shared: shared, container: makeContainer(),
            transform: { container in
                await first?(container)
                await transform(container)
            })
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
        do {
            try await Scope.$singleton.withValue(made.singletons!) {
                made.container = makeContainer()
                await transform?(made.container!)
                try await shared.withValue(made.container!) {
                    try await function()
                }
            }
        } catch {
            await made.release()
            throw error
        }
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
