/// What a factory is: its container, its key, the closure that makes its value, and the
/// modifiers applied to it. ``Factory`` and ``ParameterFactory`` wrap one. A plain value: a
/// modifier in a declaration changes this value only; registrations are kept in the container's
/// ``ContainerManager``.
// The members the resolve path touches are @usableFromInline so that `resolve` can be
// @inlinable: specialised in the caller's module, it creates no generic metadata per call.
//
// @unchecked Sendable: the closures are plain, not @Sendable, as FactoryKit's are, so that a
// closure written in a @MainActor (or other global-actor) computed property inherits that
// isolation, and a test can register a mock that is not Sendable. Depot keeps them in the
// container's state, behind its lock, and only ever calls them; it never calls a synchronous
// closure on a thread of its own choosing: it runs on the thread or task that resolves. An async
// closure of a caching scope runs in a task the first resolve starts (see `asyncInstance`); an
// actor-isolated one hops to its actor there, and the resolving tasks only wait for it, so what
// it captures is still used from one isolation domain at a time. So the contract is
// FactoryKit's: a factory whose closure is isolated to an actor is resolved on that actor (from
// code isolated to it, or through `resolveOnMainActor()` / `resolveOnGlobalActor(_:)`), and a
// non-Sendable value a closure captures is used by resolves on one isolation domain at a time
// (a test registering a mock and resolving it is). Everything else in the value is immutable
// or a reference to a Sendable object.
//
// @_eagerMove: a value may be destroyed after its last use rather than at the end of its scope,
// as every value could be before Swift 5.7. Without it the optimiser keeps a copy (a retain and
// a release of each reference in the value) around the resolve of a factory made by `init`
// (`self { Service() }` with no modifier, FactoryKit's default): a fifth of that resolve. What
// it changes: a container whose only owner is a `Factory` value in a local variable can go
// (and dispose what it cached) after that value's last use instead of at the end of the scope,
// as any object can whose owner is not kept with `withExtendedLifetime`.
@_eagerMove
public struct FactoryRegistration<P, T>: @unchecked Sendable {
    /// An async factory's closure: it runs on the executor of whoever calls it (the resolving
    /// task's actor, or the creation's task), unless it is isolated to an actor of its own.
    @usableFromInline
    typealias AsyncMake = nonisolated(nonsending) () async throws -> T
    /// An async parameterised factory's closure.
    @usableFromInline
    typealias AsyncParameterisedMake = nonisolated(nonsending) (P) async throws -> T
    /// An async alias's closure, given the container and whether its caller awaits: its
    /// source's plain hit, converted, if any, or the source's resolve (one closure: small).
    @usableFromInline
    typealias AsyncAlias = (any ManagedContainer, Bool) -> (hit: T?, resolve: AsyncAliasMake?)
    /// An async alias's source's resolve, to await in the container with the alias's key.
    @usableFromInline
    typealias AsyncAliasMake =
        nonisolated(nonsending) (any ManagedContainer, FactoryKey?) async throws -> T

    /// The closure that makes a value.
    @usableFromInline
    enum Body: @unchecked Sendable {
        case plain(() -> T)
        case parameterised((P) -> T)
        /// An ``AsyncFactory``'s closure.
        case async(AsyncMake)
        /// An ``AsyncParameterFactory``'s closure.
        case asyncParameterised(AsyncParameterisedMake)
        /// An alias's closure: it resolves its source in the container it is given (so that it
        /// captures only the source and the conversion), with the alias's key to enter before
        /// the source's step, or `nil` once the alias entered its own.
        case alias((any ManagedContainer, FactoryKey?) -> T)
        /// An async alias's closure, which gives its source's plain hit without an `await`.
        case asyncAlias(AsyncAlias)

        /// Runs a synchronous factory's closure (an async factory's runs only with `make`).
        @inline(__always)
        func callAsFunction(_ parameter: P, in container: any ManagedContainer) -> T {
            switch self {
            case .plain(let make): make()
            case .parameterised(let make): make(parameter)
            case .alias(let make): make(container, nil)
            case .async, .asyncParameterised, .asyncAlias:
                fatalError("Depot: an async closure called synchronously")
            }
        }

        /// Whether the closure is an alias's (`alias(_:key:file:_:)`).
        var isAlias: Bool {
            switch self {
            case .alias, .asyncAlias: true
            case .plain, .parameterised, .async, .asyncParameterised: false
            }
        }

        /// Whether the closure is async (an ``AsyncFactory``'s): it runs on its own actor, if any.
        var isAsync: Bool {
            switch self {
            case .async, .asyncParameterised, .asyncAlias: true
            case .plain, .parameterised, .alias: false
            }
        }

        /// Runs the closure, of either kind.
        @inline(__always)
        nonisolated(nonsending) func make(_ parameter: P, in container: any ManagedContainer)
            async throws -> T
        {
            // The closure gets the parameter as a synchronous one would: the resolve that
            // passes it waits for the closure and does not use it meanwhile.
            nonisolated(unsafe) let parameter = parameter
            return switch self {
            case .plain(let make): make()
            case .parameterised(let make): make(parameter)
            case .alias(let make): make(container, nil)
            case .async(let make): try await make()
            case .asyncParameterised(let make): try await make(parameter)
            case .asyncAlias(let source): try await Self.resolve(source, in: container, alias: nil)
            }
        }
    }

    /// A decorator, called with every resolved value.
    @usableFromInline
    enum Decorator: Sendable {
        case value(@Sendable (T) -> Void)
        /// Called with the value and whether it was just created (not taken from a cache).
        case created(@Sendable (T, Bool) -> Void)

        func callAsFunction(_ value: T, created: Bool) {
            switch self {
            case .value(let decorate): decorate(value)
            case .created(let decorate): decorate(value, created)
            }
        }
    }

    /// The settings a factory rarely has, apart so that the factory value stays small.
    @usableFromInline
    final class Options: Sendable {
        @usableFromInline let values: Values

        init(_ values: Values) { self.values = values }

        @usableFromInline
        struct Values: Sendable {
            @usableFromInline var timeToLive: Double?
            @usableFromInline var decorator: Decorator?
            /// Set by `scopeOnParameters`: makes the parameter part of the cache key.
            @usableFromInline var parameterAccess: ParameterRun.Access?
            /// Where a `promised()` factory was declared.
            @usableFromInline var promise: Promise?
            /// Set on the value `register` returns: modifiers applied to it are registered.
            @usableFromInline var persistsModifiers = false
            /// Set by `once()`: modifiers registered from outside win over the declaration's.
            @usableFromInline var isOnce = false
            /// Set by a context override: `once()` then marks the contexts registered once.
            @usableFromInline var registersContexts = false
            /// Set by `onDispose`: tears down a kept instance.
            @usableFromInline var disposer: Disposer?
        }
    }

    @usableFromInline var container: any ManagedContainer
    /// The container's manager, read once when the value is made.
    @usableFromInline var manager: ContainerManager
    /// The key and the type.
    @usableFromInline let key: FactoryKey
    @usableFromInline var body: Body
    /// The scope the factory declares, if any: a built-in one by its kind, so that making the
    /// factory value counts no reference to a scope.
    @usableFromInline var declaredScope: Scope.Declared?
    /// Set by `safeInTests`: strict tests let the declaration's closure run. Not an option, so
    /// that a factory declared safe resolves plainly and allocates nothing.
    @usableFromInline var isSafeInTests = false
    /// `nil` for a factory with none of the settings `Options` holds.
    @usableFromInline var options: Options?
    #if DEBUG
        /// The actor the declaration is isolated to, if any, for debug builds' check.
        @usableFromInline var isolation: (any Actor)?
    #endif
    /// The type of the actor the declaration is isolated to, if any, for a validation's check
    /// in every build: a metatype, so that copying a factory value counts no reference. (Two
    /// instances of one actor type, which only a declaration inside an actor's method can
    /// name, are not told apart.)
    @usableFromInline var isolatedTo: (any Actor.Type)?

    @inlinable
    init(
        container: any ManagedContainer, name: StaticString, body: Body,
        isolation: (any Actor)? = nil, file: StaticString? = nil
    ) {
        self.container = container
        self.manager = container.manager
        self.key = FactoryKey(name: name, type: T.self, file: file)
        self.body = body
        #if DEBUG
            self.isolation = isolation
        #endif
        isolatedTo = isolation.map { Swift.type(of: $0) }
    }

    /// The factory `key` of `container`, made by `body`, with no modifiers.
    init(container: any ManagedContainer, key: FactoryKey, body: Body) {
        (self.container, manager, self.key, self.body) = (container, container.manager, key, body)
    }

    /// The scope the factory declares, if any.
    var scope: Scope? { declaredScope?.scope }

    /// Replaces the options with `change` applied to them.
    @usableFromInline
    mutating func changeOptions(_ change: (inout Options.Values) -> Void) {
        var values = options?.values ?? Options.Values()
        change(&values)
        options = Options(values)
    }

    var timeToLive: Double? { options?.values.timeToLive }

    var decorator: Decorator? { options?.values.decorator }

    /// Where a `promised()` factory was declared.
    @usableFromInline typealias Promise = (file: StaticString, line: UInt)

    @inlinable
    var persistsModifiers: Bool { options?.values.persistsModifiers ?? false }

    var isOnce: Bool { options?.values.isOnce ?? false }

    /// The step this factory adds to a resolution path.
    func step(_ parameter: P) -> ResolutionStep {
        step(with: P.self == Void.self ? nil : ResolutionParameter(parameter))
    }

    /// The step, without its parameter.
    @usableFromInline
    var stepWithoutParameter: ResolutionStep { step(with: nil) }

    /// The step, with `parameter` as the path shows it; of the factory `key` of the same
    /// container (an alias of this one) where one is given.
    func step(with parameter: ResolutionParameter?, key: FactoryKey? = nil) -> ResolutionStep {
        ResolutionStep(
            manager: ObjectIdentifier(manager), key: key ?? self.key, parameter: parameter,
            containerType: Swift.type(of: container))
    }
}

extension FactoryRegistration {
    /// The parameter as part of the cache key, for a factory that caches one per parameter.
    func parameterKey(_ parameter: P) -> ParameterKey? {
        // Most factories have no options, and then no key: told without copying out an access.
        guard let options else { return nil }
        return options.values.parameterAccess?.makeKey(parameter)
    }
}

/// Which of the values a factory's declaration and its registration (modifiers applied from
/// outside) give one option applies: the declaration's, unless it says `once()` (FactoryKit's
/// rule).
func winningOption<Value>(declared: Value?, registered: Value?, isOnce: Bool) -> Value? {
    isOnce ? registered ?? declared : declared ?? registered
}
