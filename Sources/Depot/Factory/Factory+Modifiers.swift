/// The modifiers that ``Factory`` and ``ParameterFactory`` share.
///
/// In a factory's declaration a modifier changes that factory value only: it costs nothing per
/// resolve. On the value `register(factory:)` returns, it is also kept with the registration.
public protocol FactoryModifying {
    associatedtype P
    associatedtype T
    /// The factory's container, key, closure and modifiers.
    var registration: FactoryRegistration<P, T> { get set }
}

extension FactoryModifying {
    /// Sets the scope that decides how long instances live (see <doc:ChoosingAScope>).
    @discardableResult
    public func scope(_ scope: Scope) -> Self {
        var copy = self
        copy.registration.modify({ $0.scope = scope }, persisting: { $0.scope = scope })
        return copy
    }

    /// A new instance on every resolve.
    public var unique: Self { scope(.unique) }
    /// One instance per container until reset.
    public var cached: Self { scope(.cached) }
    /// One instance per container while anyone holds it.
    public var shared: Self { scope(.shared) }
    /// One instance per process until reset.
    public var singleton: Self { scope(.singleton) }
    /// One instance per resolution graph.
    public var graph: Self { scope(.graph) }

    /// Replaces a cached instance older than `seconds` on the next resolve, measured from its
    /// creation on the manager's monotonic ``ContainerManager/clock``.
    @discardableResult
    public func timeToLive(_ seconds: Double) -> Self {
        var copy = self
        copy.registration.modify(
            { $0.timeToLive = seconds }, persisting: { $0.timeToLive = seconds })
        return copy
    }

    /// Calls `decorator` with every resolved value, cached or new.
    @discardableResult
    public func decorator(_ decorator: @escaping @Sendable (T) -> Void) -> Self {
        setDecorator(.value(decorator))
    }

    /// Calls `decorator` with every resolved value and whether it was just created (`false` when
    /// it came from a scope's cache).
    @discardableResult
    public func decorator(_ decorator: @escaping @Sendable (T, Bool) -> Void) -> Self {
        setDecorator(.created(decorator))
    }

    private func setDecorator(_ decorator: FactoryRegistration<P, T>.Decorator) -> Self {
        var copy = self
        copy.registration.modify(
            { $0.decorator = decorator }, persisting: { $0.decorator = decorator })
        return copy
    }

    /// Kept for FactoryKit code: there, modifiers in a declaration overwrite those set from
    /// outside on every resolve unless `once()` is applied. In Depot a declaration's modifiers
    /// never overwrite a registration's, so `once()` has nothing to do.
    @discardableResult
    public func once() -> Self { self }

    /// Forgets what `options` says for this factory in its container: its registration, its
    /// contexts, its cached instances (the singleton too), or all of them.
    @discardableResult
    public func reset(_ options: FactoryResetOptions = .all) -> Self {
        registration.reset(options)
        return self
    }

    func promising() -> Self {
        var copy = self
        copy.registration.isPromised = true
        return copy
    }
}
