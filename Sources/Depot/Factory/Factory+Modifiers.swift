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
    /// Sets the scope that decides how long instances live (see <doc:ChoosingAScope>).
    @discardableResult
    @inlinable
    public consuming func scope(_ scope: Scope) -> Self {
        // `consuming`: a declaration's `self { ... }.cached` moves the factory into the result
        // instead of copying it.
        registration.apply(.scope(scope))
        return self
    }

    /// Sets the built-in scope `kind`, as ``scope(_:)`` sets any.
    @inlinable
    consuming func builtIn(_ kind: Scope.BuiltIn) -> Self {
        registration.apply(builtIn: Scope.builtIn(kind))
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
    /// creation on the manager's monotonic ``ContainerManager/clock``.
    @discardableResult
    @inlinable
    public consuming func timeToLive(_ seconds: Double) -> Self {
        registration.apply(.timeToLive(seconds))
        return self
    }

    /// Calls `decorator` with every resolved value, cached or new.
    @discardableResult
    @inlinable
    public consuming func decorator(_ decorator: @escaping @Sendable (T) -> Void) -> Self {
        registration.apply(.decorator(.value(decorator)))
        return self
    }

    /// Calls `decorator` with every resolved value and whether it was just created (`false` when
    /// it came from a scope's cache).
    @discardableResult
    @inlinable
    public consuming func decorator(_ decorator: @escaping @Sendable (T, Bool) -> Void) -> Self {
        registration.apply(.decorator(.created(decorator)))
        return self
    }

    /// Kept for FactoryKit code: there, modifiers in a declaration overwrite those set from
    /// outside on every resolve unless `once()` is applied. In Depot a declaration's modifiers
    /// never overwrite a registration's, so `once()` has nothing to do.
    @discardableResult
    @inlinable
    public consuming func once() -> Self { self }

    /// Forgets what `options` says for this factory in its container: its registration, its
    /// contexts, its cached instances (the singleton too), or all of them.
    @discardableResult
    public func reset(_ options: FactoryResetOptions = .all) -> Self {
        registration.reset(options)
        return self
    }

    consuming func promising() -> Self {
        registration.isPromised = true
        return self
    }
}
