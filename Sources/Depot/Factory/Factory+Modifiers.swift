/// The modifiers that ``Factory`` and ``ParameterFactory`` share.
///
/// In a factory's declaration a modifier changes that factory value only: it costs nothing per
/// resolve. On the value `register(factory:)` returns, it is also kept with the registration.
public protocol FactoryModifying {
    /// The parameter the factory takes: `Void` for a ``Factory``.
    associatedtype P
    /// The type of the instances the factory makes.
    associatedtype T
    /// The factory's container, key, closure and modifiers.
    var registration: FactoryRegistration<P, T> { get set }
}

extension FactoryModifying {
    /// Sets the scope that decides how long instances live (see <doc:ChoosingAScope>). Outside
    /// the declaration it is kept in the container, unless the declaration sets a scope and has
    /// no `once()`.
    ///
    /// - Parameters:
    ///   - scope: the scope.
    ///   - caller: where the modifier is applied; leave the default.
    @discardableResult
    @inlinable
    public consuming func scope(_ scope: Scope, caller: StaticString = #function) -> Self {
        // `consuming`: a declaration's `self { ... }.cached` moves the factory into the result
        // instead of copying it.
        registration.apply(.scope(scope), caller: caller)
        return self
    }

    /// Sets the built-in scope `kind`, as ``scope(_:)`` sets any.
    @inlinable
    consuming func builtIn(_ kind: Scope.BuiltIn) -> Self {
        registration.apply(builtIn: kind)
        return self
    }

    /// A new instance on every resolve.
    @inlinable
    public var unique: Self { consuming get { builtIn(.unique) } }
    /// One instance per container until reset.
    @inlinable
    public var cached: Self { consuming get { builtIn(.cached) } }
    /// One instance per container while anyone holds it.
    @inlinable
    public var shared: Self { consuming get { builtIn(.shared) } }
    /// One instance per process until reset.
    @inlinable
    public var singleton: Self { consuming get { builtIn(.singleton) } }
    /// One instance per process while anyone holds it.
    @inlinable
    public var weakSingleton: Self { consuming get { builtIn(.weakSingleton) } }
    /// One instance per resolution graph.
    @inlinable
    public var graph: Self { consuming get { builtIn(.graph) } }

    /// Replaces a cached instance older than `seconds` on the next resolve, measured from its
    /// creation on the manager's monotonic ``ContainerManager/clock``. Expired instances nobody
    /// asks for again are let go of (and disposed) as new ones are kept, so a factory kept per
    /// parameter holds at most about twice as many instances as are live, or 64 when fewer are.
    ///
    /// - Parameters:
    ///   - seconds: the longest an instance is kept: zero or more (`.infinity` keeps it until
    ///     a reset). A negative or NaN value stops the process with a message naming the factory.
    ///   - caller: where the modifier is applied; leave the default.
    @discardableResult
    @inlinable
    public consuming func timeToLive(_ seconds: Double, caller: StaticString = #function) -> Self {
        if !(seconds >= 0) { registration.rejectTimeToLive(seconds) }
        registration.apply(.timeToLive(seconds), caller: caller)
        return self
    }

    /// Calls `decorator` with every resolved value, cached or new.
    ///
    /// Applied outside the factory's declaration, it is kept in the container, as
    /// ``scope(_:caller:)`` says.
    ///
    /// - Parameters:
    ///   - decorator: called with each value.
    ///   - caller: where the modifier is applied; leave the default.
    @discardableResult
    @inlinable
    public consuming func decorator(
        _ decorator: @escaping @Sendable (T) -> Void, caller: StaticString = #function
    ) -> Self {
        registration.apply(.decorator(.value(decorator)), caller: caller)
        return self
    }

    /// Calls `decorator` with every resolved value and whether it was just created (`false` when
    /// it came from a scope's cache).
    ///
    /// - Parameters:
    ///   - decorator: called with each value and whether it is new.
    ///   - caller: where the modifier is applied; leave the default.
    @discardableResult
    @inlinable
    public consuming func decorator(
        _ decorator: @escaping @Sendable (T, Bool) -> Void, caller: StaticString = #function
    ) -> Self {
        registration.apply(.decorator(.created(decorator)), caller: caller)
        return self
    }

    /// Lets modifiers applied from outside the declaration win over the declaration's own, and
    /// registers the declaration's context overrides once. Write it last.
    ///
    /// - Parameter caller: where the modifier is applied; leave the default.
    @discardableResult
    @inlinable
    public consuming func once(caller: StaticString = #function) -> Self {
        if registration.isDeclaration(caller) {
            registration.changeOptions { $0.isOnce = true }
            if registration.options?.values.registersContexts == true {
                registration.markContextsRegisteredOnce()
            }
        }
        return self
    }

    /// Declares the factory as safe in a test as in the app (a formatter, a pure value, an
    /// in-memory store): a strict test (DepotTesting's `ContainerTrait.strict`) lets its
    /// closure run without reporting it.
    @inlinable
    public var safeInTests: Self {
        consuming get {
            registration.isSafeInTests = true
            return self
        }
    }

    /// Forgets what `options` says for this factory in its container: its registration, its
    /// contexts, its cached instances (the singleton too), or all of them.
    @discardableResult
    public func reset(_ options: FactoryResetOptions = .all) -> Self {
        registration.reset(options)
        return self
    }

    consuming func promising(at file: StaticString, line: UInt) -> Self {
        registration.changeOptions { $0.promise = (file, line) }
        return self
    }
}

extension FactoryModifying where P: Hashable {
    /// Caches one instance per parameter value instead of one for all parameters: for a
    /// ``ParameterFactory`` or ``AsyncParameterFactory``.
    ///
    /// Parameters that are not equal to themselves (`Double.nan`) share one instance: a value
    /// no lookup could find again is never kept apart.
    @inlinable
    public var scopeOnParameters: Self {
        consuming get {
            registration.changeOptions { $0.parameterAccess = ParameterRun.Of<P>.access }
            return self
        }
    }
}
