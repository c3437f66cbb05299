/// A dependency resolved on first use, exactly once even when several threads use it first at
/// the same moment, then kept. One made during a resolution joins its graph.
public struct Lazy<T> {
    private let box: LazyBox<T>

    init(_ factory: Factory<T>) {
        box = LazyBox(factory)
    }

    /// The value: resolved on first access, the same one afterwards.
    public var value: T { box.value }

    /// The value; the same as ``value``.
    public func callAsFunction() -> T { box.value }

    /// Whether the value has been resolved.
    public var isResolved: Bool { box.resolvedOrNil() != nil }
}

extension Lazy: @unchecked Sendable where T: Sendable {}

/// A dependency resolved anew on every use, so it follows the factory's scope, registrations
/// and resets.
public struct Provider<T>: Sendable {
    /// The factory resolved on every use.
    public let factory: Factory<T>
    private let graph: ResolutionGraph?

    init(_ factory: Factory<T>) {
        self.factory = factory
        graph = ResolutionFrame.current.currentGraph()
    }

    /// A newly resolved value.
    public var value: T { ResolutionFrame.inject(joining: graph) { factory() } }

    /// A newly resolved value; the same as ``value``.
    public func callAsFunction() -> T { value }
}

/// A parameterised dependency resolved anew on every call with the arguments of that call:
/// DITranquillity's `Provider1...5` (use a tuple for several arguments).
public struct ParameterProvider<P, T>: Sendable {
    /// The factory resolved on every call.
    public let factory: ParameterFactory<P, T>
    private let graph: ResolutionGraph?

    init(_ factory: ParameterFactory<P, T>) {
        self.factory = factory
        graph = ResolutionFrame.current.currentGraph()
    }

    /// A newly resolved value for `parameter`.
    public func value(_ parameter: P) -> T {
        ResolutionFrame.inject(joining: graph) { factory(parameter) }
    }

    /// A newly resolved value for `parameter`; the same as ``value(_:)``.
    public func callAsFunction(_ parameter: P) -> T { value(parameter) }
}

extension Factory {
    /// A ``Lazy`` of this factory: it resolves on first use and keeps the value.
    public var lazy: Lazy<T> { Lazy(self) }

    /// A ``Provider`` of this factory: it resolves on every use.
    public var provider: Provider<T> { Provider(self) }
}

extension ParameterFactory {
    /// A ``ParameterProvider`` of this factory: it resolves on every call.
    public var provider: ParameterProvider<P, T> { ParameterProvider(self) }
}
