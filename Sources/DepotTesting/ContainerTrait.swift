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
///     static var services: Self { ContainerTrait(shared: ServiceContainer.$shared) { ServiceContainer() } }
/// }
/// ```
public struct ContainerTrait<C: ManagedContainer>: TestTrait, SuiteTrait, TestScoping {
    private let shared: TaskLocal<C>
    private let makeContainer: @Sendable () -> C
    private let transform: (@Sendable (C) -> Void)?

    /// Makes a trait that sets `shared` to a container made by `makeContainer` for each test.
    ///
    /// - Parameters:
    ///   - shared: the container type's task-local `shared` (its projected value, `C.$shared`).
    ///   - transform: runs with the fresh container before the test: register mocks here.
    ///   - makeContainer: makes the fresh container.
    public init(
        shared: TaskLocal<C>, transform: (@Sendable (C) -> Void)? = nil,
        _ makeContainer: @escaping @Sendable () -> C
    ) {
        self.shared = shared
        self.makeContainer = makeContainer
        self.transform = transform
    }

    /// Applied to a suite, the trait reaches each of its tests.
    public var isRecursive: Bool { true }

    /// Runs `function` with a fresh container as `shared` and empty singletons.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard !test.isSuite else {
            try await function()
            return
        }
        try await Scope.withIsolatedSingletons {
            let container = makeContainer()
            transform?(container)
            try await shared.withValue(container) {
                try await function()
            }
        }
    }
}

extension Trait where Self == ContainerTrait<Container> {
    /// Runs each test with a fresh `Container.shared` and singletons of its own.
    public static var container: Self {
        ContainerTrait(shared: Container.$shared) { Container() }
    }

    /// Runs each test with a fresh `Container.shared`, after `transform` has registered what the
    /// test needs.
    ///
    /// ```swift
    /// @Test(.container { $0.api { MockAPI() } })
    /// ```
    public static func container(_ transform: @escaping @Sendable (Container) -> Void) -> Self {
        ContainerTrait(shared: Container.$shared, transform: transform) { Container() }
    }
}
