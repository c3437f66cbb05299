// What a validation resolves in and with: the copies of managers, and, for `validate()` with no
// roots, the factories registered in a container.

extension Validation {
    /// A registered factory that needs no parameter, as `validate()` resolves it in a container.
    struct Declaration {
        let key: FactoryKey
        let isolation: (any Actor.Type)?
        let resolve: ((any ManagedContainer) -> Void)?
        let resolveAsync: ((any ManagedContainer) async throws -> Void)?

        /// The declaration as a root of a validation of `container`.
        func root(in container: any ManagedContainer) -> Root {
            Root(
                name: "\(Swift.type(of: container)).\(key)", isolation: isolation,
                resolve: resolve.map { resolve in { resolve(container) } },
                resolveAsync: resolveAsync.map { resolve in { try await resolve(container) } })
        }
    }
}

/// A registered closure (a `FactoryRegistration<P, T>.Body`), which `validate()` resolves.
protocol RegisteredBody {
    /// The closure as the factory `key`, if that needs no parameter.
    func declaration(as key: FactoryKey) -> Validation.Declaration?
}

extension FactoryRegistration.Body: RegisteredBody {
    func declaration(as key: FactoryKey) -> Validation.Declaration? {
        // Used as the registration it copies is: by resolves, one at a time per root.
        let body = Unchecked(self)
        return FactoryRegistration.declaration(key: key, isAsync: isAsync) {
            FactoryRegistration(container: $0, key: key, body: body.value)
        }
    }
}

extension FactoryRegistration {
    /// `factory(container)` resolved for `validate()`, if it needs no parameter.
    static func declaration(
        key: FactoryKey, isAsync: Bool, isolation: (any Actor.Type)? = nil,
        _ factory: @escaping (any ManagedContainer) -> Self
    ) -> Validation.Declaration? {
        guard P.self == Void.self else { return nil }
        return isAsync
            ? .init(
                key: key, isolation: isolation, resolve: nil,
                resolveAsync: { _ = try await factory($0).resolveAsync(() as! P) })
            : .init(
                key: key, isolation: isolation, resolve: { _ = factory($0).resolve(() as! P) },
                resolveAsync: nil)
    }

    /// Keeps this factory, resolved while its container records dependencies, for `validate()`:
    /// the first time only, so that later resolves look it up and allocate nothing.
    @usableFromInline
    func keepForValidation() {
        manager.state.withLock { state in
            guard state.isRecordingDependencies, state.seldom.resolved[key] == nil else { return }
            // Resolved as this factory is: by resolves, one at a time per root. It keeps its
            // container (its closure captures it) until `removeRecordedDependencies()`.
            let factory = Unchecked(self)
            state.seldom.resolved[key] = Self.declaration(
                key: key, isAsync: body.isAsync, isolation: isolatedTo
            ) { _ in
                factory.value
            }
        }
    }
}
