/// A factory for ``ManagedContainer/validate(roots:)`` to start from: a plain or async
/// factory, with the parameter to resolve a parameterised one with.
///
/// ```swift
/// let report = await Container.shared.validate(roots: [
///     .factory(\.appModel), .factory(\.user, 42), .async(\.database),
/// ])
/// ```
// @unchecked Sendable: a root holds a key path, an immutable value, and the parameter, which
// the validation passes to the factory once, as a resolve would.
public struct ValidationRoot<Container: ManagedContainer>: @unchecked Sendable {
    /// Resolves the root in `container`, synchronously.
    let resolve: ((Container) -> Void)?
    /// Resolves the root in `container`, for an async factory.
    let resolveAsync: ((Container) async throws -> Void)?

    /// A plain factory.
    public static func factory<T>(_ keyPath: KeyPath<Container, Factory<T>>) -> Self {
        Self(resolve: { _ = $0[keyPath: keyPath]() }, resolveAsync: nil)
    }

    /// A parameterised factory, resolved with `parameter`.
    public static func factory<P, T>(
        _ keyPath: KeyPath<Container, ParameterFactory<P, T>>, _ parameter: P
    ) -> Self {
        Self(resolve: { _ = $0[keyPath: keyPath](parameter) }, resolveAsync: nil)
    }

    /// An async factory.
    public static func async<T>(_ keyPath: KeyPath<Container, AsyncFactory<T>>) -> Self {
        Self(resolve: nil, resolveAsync: { _ = try await $0[keyPath: keyPath]() })
    }

    /// An async parameterised factory, resolved with `parameter`.
    public static func async<P, T>(
        _ keyPath: KeyPath<Container, AsyncParameterFactory<P, T>>, _ parameter: P
    ) -> Self {
        Self(resolve: nil, resolveAsync: { _ = try await $0[keyPath: keyPath](parameter) })
    }
}

extension ManagedContainer {
    /// Resolves each root as a real resolve would and reports every problem in what they
    /// reach, without stopping the process and without changing the container.
    ///
    /// The registrations and contexts in force apply, so a test's mocks do. A problem in one
    /// root never hides one in another. Nothing the validation makes is kept: it resolves in a
    /// copy of each container it reaches (empty caches, singletons of its own), and nothing a
    /// container keeps is disposed or replaced. With no roots, it checks every factory that
    /// needs no parameter and was resolved while ``ContainerManager/isRecordingDependencies``
    /// was on (as declared) or is registered in this container (as its registration makes it).
    ///
    /// ```swift
    /// @Test func graphIsValid() {
    ///     let report = Container.shared.validate(\.appModel, \.server)
    ///     #expect(report.isValid, "\(report)")
    /// }
    /// ```
    ///
    /// It blocks the calling thread while the roots resolve, in a task that takes the caller's
    /// task-locals. A synchronous resolve that hits a problem which stops it (a cycle, a
    /// missing registration, the depth limit) cannot be unwound: its thread, one of the
    /// validation's own, stays parked for the life of the process with what its stack holds.
    /// See <doc:Diagnostics#Validating-a-graph>.
    public func validate<each T>(_ roots: repeat KeyPath<Self, Factory<each T>>)
        -> ValidationReport
    {
        var list: [ValidationRoot<Self>] = []
        for root in repeat each roots {
            list.append(.factory(root))
        }
        return Validation.validate(self, roots: list.isEmpty ? registeredRoots() : list)
    }

    /// Validates `roots`, which may be async factories and parameterised ones, as
    /// ``validate(_:)`` does; with none, every registered factory that needs no parameter.
    public func validate(roots: [ValidationRoot<Self>]) async -> ValidationReport {
        await Validation.validate(self, roots: roots.isEmpty ? registeredRoots() : roots)
    }

    /// The factories registered in this container that need no parameter, as roots.
    private func registeredRoots() -> [ValidationRoot<Self>] {
        manager.autoRegisterIfNeeded(self)
        return manager.registeredDeclarations().map { declaration in
            ValidationRoot(resolve: declaration.resolve, resolveAsync: declaration.resolveAsync)
        }
    }
}

extension Validation {
    /// Validates `roots` in `container`, blocking the calling thread meanwhile; an async root
    /// is listed as unchecked.
    static func validate<C: ManagedContainer>(_ container: C, roots: [ValidationRoot<C>])
        -> ValidationReport
    {
        let validation = Validation()
        defer { validation.end() }
        for root in roots {
            validation.start(root, in: container, isAsyncAllowed: false).wait()
        }
        return validation.report(of: container)
    }

    /// Validates `roots` in `container`.
    static func validate<C: ManagedContainer>(_ container: C, roots: [ValidationRoot<C>]) async
        -> ValidationReport
    {
        let validation = Validation()
        defer { validation.end() }
        for root in roots {
            await validation.start(root, in: container, isAsyncAllowed: true).ended()
        }
        return validation.report(of: container)
    }

    /// Starts resolving `root` in a task that takes the caller's task-locals (so a test's
    /// task-local containers apply), on ``ValidationExecutor``, where a resolve that parks
    /// takes no thread from the cooperative pool; returns its run, to wait for.
    private func start<C: ManagedContainer>(
        _ root: ValidationRoot<C>, in container: C, isAsyncAllowed: Bool
    ) -> Run {
        let run = Run()
        state.withLock { $0.run = run }
        let work = { @Sendable in
            await self.inRoot {
                if let resolve = root.resolve {
                    resolve(container)
                } else if isAsyncAllowed {
                    // Problems were recorded where they were found; other errors are the
                    // factories' own.
                    try? await root.resolveAsync?(container)
                } else {
                    self.needsAsync(root)
                }
            }
            run.finish()
        }
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
            Task(executorPreference: ValidationExecutor.shared) { await work() }
        } else {
            Task { await work() }
        }
        return run
    }
}
