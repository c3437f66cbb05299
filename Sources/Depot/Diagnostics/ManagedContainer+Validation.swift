/// A factory for ``ManagedContainer/validate(roots:isolation:)`` to start from: a plain or async
/// factory, with the parameter to resolve a parameterised one with.
///
/// ```swift
/// let report = await Container.shared.validate(roots: [
///     .factory(\.appModel), .factory(\.user, 42), .async(\.database),
/// ])
/// ```
// @unchecked Sendable: a root holds a closure that reads a key path, an immutable value, and
// the parameter, which the validation passes to the factory once, as a resolve would.
public struct ValidationRoot<Container: ManagedContainer>: @unchecked Sendable {
    /// The root as the validation runs it, in `container`.
    let make: ((Container) -> Validation.Root)?
    /// The same, for a root named by a closure isolated to its actor.
    let makeOnActor: ((Container) async -> Validation.Root)?

    init(make: @escaping (Container) -> Validation.Root) {
        (self.make, makeOnActor) = (make, nil)
    }

    init(makeOnActor: @escaping (Container) async -> Validation.Root) {
        (make, self.makeOnActor) = (nil, makeOnActor)
    }

    /// The root as the validation runs it, in `container`.
    func made(in container: Container) async -> Validation.Root {
        if let make { return make(container) }
        return await makeOnActor!(container)
    }

    /// A plain factory declared on an actor, named by a closure isolated to it, for a caller
    /// off that actor, where Swift forms no key path to it:
    /// `.factory { @MainActor in $0.profileModel }`.
    public static func factory<T>(
        _ factory: @escaping @isolated(any) @Sendable (Container) -> Factory<T>
    ) -> Self {
        Self(makeOnActor: { container in
            let made = await factory(container)
            return made.registration.validationRoot(()) { _ = made() }
        })
    }

    /// A plain factory.
    public static func factory<T>(_ keyPath: KeyPath<Container, Factory<T>>) -> Self {
        Self { container in
            let factory = container[keyPath: keyPath]
            return factory.registration.validationRoot(()) { _ = factory() }
        }
    }

    /// A parameterised factory, resolved with `parameter`.
    public static func factory<P, T>(
        _ keyPath: KeyPath<Container, ParameterFactory<P, T>>, _ parameter: P
    ) -> Self {
        Self { container in
            let factory = container[keyPath: keyPath]
            return factory.registration.validationRoot(parameter) { _ = factory(parameter) }
        }
    }

    /// An async factory.
    public static func async<T>(_ keyPath: KeyPath<Container, AsyncFactory<T>>) -> Self {
        Self { container in
            let factory = container[keyPath: keyPath]
            return factory.registration.validationRoot((), async: { _ = try await factory() })
        }
    }

    /// An async parameterised factory, resolved with `parameter`.
    public static func async<P, T>(
        _ keyPath: KeyPath<Container, AsyncParameterFactory<P, T>>, _ parameter: P
    ) -> Self {
        Self { container in
            let factory = container[keyPath: keyPath]
            return factory.registration.validationRoot(
                parameter, async: { _ = try await factory(parameter) })
        }
    }
}

extension FactoryRegistration {
    /// This factory as a validation's root, resolved for `parameter` by `resolve`.
    func validationRoot(_ parameter: P, resolve: @escaping () -> Void) -> Validation.Root {
        Validation.Root(
            name: step(parameter).descriptionWithParameter, isolation: isolatedTo,
            resolve: resolve, resolveAsync: nil)
    }

    /// This async factory as a validation's root, resolved for `parameter` by `resolve`.
    func validationRoot(_ parameter: P, async resolve: @escaping () async throws -> Void)
        -> Validation.Root
    {
        Validation.Root(
            name: step(parameter).descriptionWithParameter, isolation: isolatedTo, resolve: nil,
            resolveAsync: resolve)
    }
}

extension ManagedContainer {
    /// Resolves each root as a real resolve would and reports every problem in what they
    /// reach, without changing the container.
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
    /// The roots resolve on the calling thread, with the caller's task-locals; a root declared
    /// on an actor the caller is not on, or an async one, is listed in
    /// ``ValidationReport/unchecked`` with how to check it (``validate(roots:isolation:)``).
    /// What the validation made is released, and disposed in a task, when it returns.
    ///
    /// Most problems let the validation go on. A synchronous resolve stopped by a cycle, the
    /// depth limit, a synchronous factory that would run off its actor or a type resolved
    /// through `Resolving` with no registration cannot be returned from: the report so far is
    /// written to standard error and the process ends, as the same resolve would end it
    /// without the validation. Where a graph may hold one, validate it in child processes;
    /// see <doc:Diagnostics#A-stop-that-ends-the-process>.
    public func validate<each T>(_ roots: repeat KeyPath<Self, Factory<each T>>)
        -> ValidationReport
    {
        var list: [ValidationRoot<Self>] = []
        for root in repeat each roots {
            list.append(.factory(root))
        }
        let made = (list.isEmpty ? registeredRoots() : list).map { $0.make!(self) }
        return Validation.validate("\(Self.self)", roots: made)
    }

    /// Validates `roots`, which may be async factories, parameterised ones and ones declared
    /// on actors, as ``validate(_:)`` does; with none, every registered factory that needs no
    /// parameter.
    ///
    /// Each root runs on the actor it is declared on, and one declared on none runs on the
    /// caller's: a test can validate factories on several actors in one call. What the
    /// validation made is disposed before it returns. An async factory that throws is a
    /// problem, with its error; a cycle through async factories is reported and the
    /// validation goes on.
    public func validate(
        roots: [ValidationRoot<Self>], isolation: isolated (any Actor)? = #isolation
    ) async -> ValidationReport {
        var made: [Validation.Root] = []
        for root in roots.isEmpty ? registeredRoots() : roots {
            made.append(await root.made(in: self))
        }
        return await Validation.validate(
            "\(Self.self)", roots: made, caller: isolation.map { Swift.type(of: $0) })
    }

    /// The factories registered in this container that need no parameter, as roots.
    private func registeredRoots() -> [ValidationRoot<Self>] {
        manager.autoRegisterIfNeeded(self)
        return manager.registeredDeclarations().map { declaration in
            ValidationRoot { declaration.root(in: $0) }
        }
    }
}
