/// A dependency resolved on first use, exactly once even when several threads use it first at
/// the same moment, then kept.
///
/// ```swift
/// final class MainRouter {
///     let login: Lazy<LoginRouter>
///     init(login: Lazy<LoginRouter>) { self.login = login }
///     func showLogin() { login.value.start() }
/// }
/// extension Container {
///     var mainRouter: Factory<MainRouter> { self { MainRouter(login: self.loginRouter.lazy) } }
/// }
/// ```
///
/// A `Lazy` made while a graph is being resolved joins that graph: when it resolves later, its
/// graph-scoped dependencies come from the same graph, so the object it makes can reach the
/// graph-scoped object that holds it. It never keeps the graph's instances alive. Copies of a
/// `Lazy` share one value.
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
///
/// ```swift
/// final class MainRouter {
///     let news: Provider<NewsRouter>
///     func showNews() { news.value.start() }
/// }
/// ```
///
/// A `Provider` made while a graph is being resolved joins that graph, as ``Lazy`` does.
public struct Provider<T>: Sendable {
    /// The factory resolved on every use.
    public let factory: Factory<T>
    private let graph: ResolutionGraph?

    init(_ factory: Factory<T>) {
        self.factory = factory
        graph = ResolutionFrame.current.currentGraph()
    }

    /// A newly resolved value.
    public var value: T { ResolutionFrame.current.join(graph) { factory() } }

    /// A newly resolved value; the same as ``value``.
    public func callAsFunction() -> T { value }
}

/// A parameterised dependency resolved anew on every call with the arguments of that call:
/// DITranquillity's `Provider1...5` (use a tuple for several arguments).
///
/// ```swift
/// extension Container {
///     var newsRouter: ParameterFactory<(String, Int), NewsRouter> {
///         self { NewsRouter(server: $0.0, count: $0.1) }
///     }
/// }
/// let news = container.newsRouter.provider
/// let router = news(("servername", 20))
/// ```
///
/// A `ParameterProvider` made while a graph is being resolved joins that graph, as ``Lazy`` does.
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
        ResolutionFrame.current.join(graph) { factory(parameter) }
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
