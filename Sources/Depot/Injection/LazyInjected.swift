/// Resolves a dependency on first access, exactly once even if several threads access it first
/// at the same time, then keeps it.
@propertyWrapper
public struct LazyInjected<T> {
    private let box: LazyBox<T>

    /// Resolves the factory at `keyPath` of `Container.shared` on first access.
    public init(_ keyPath: KeyPath<Container, Factory<T>>) {
        box = LazyBox(Container.shared[keyPath: keyPath])
    }

    /// Resolves the factory at `keyPath` of `C.shared` on first access.
    public init<C: SharedContainer>(_ keyPath: KeyPath<C, Factory<T>>) {
        box = LazyBox(C.shared[keyPath: keyPath])
    }

    /// The value, resolved on first access; setting it replaces it.
    public var wrappedValue: T {
        get { box.value }
        nonmutating set { box.value = newValue }
    }

    /// The wrapper itself: `$api.factory`, `$api.resolvedOrNil()`, `$api.resolve(reset:)`.
    public var projectedValue: LazyInjected<T> { self }

    /// The factory the value comes from.
    public var factory: Factory<T> { box.factory }

    /// The value if it has been resolved, without resolving it.
    public func resolvedOrNil() -> T? { box.resolvedOrNil() }

    /// Resolves the value again now, first resetting the factory as `reset` says.
    public func resolve(reset: FactoryResetOptions = .none) {
        box.factory.reset(reset)
        box.value = ResolutionFrame.inject(joining: nil) { box.factory() }
    }
}

extension LazyInjected: @unchecked Sendable where T: Sendable {}

/// A value resolved once, on first use, under a lock.
// @unchecked Sendable: the value is read and written only under `state`'s lock, and the factory
// runs under `gate`, so two first accesses make one value.
final class LazyBox<T>: @unchecked Sendable {
    let factory: Factory<T>
    /// The graph being resolved when the box was made, which the first access joins.
    private let graph: ResolutionGraph?
    private let gate = Mutex()
    private let state = Locked<T?>(nil)

    init(_ factory: Factory<T>) {
        self.factory = factory
        graph = ResolutionFrame.current.currentGraph()
    }

    var value: T {
        get {
            if let value = state.withLock({ $0 }) { return value }
            gate.lock()
            defer { gate.unlock() }
            if let value = state.withLock({ $0 }) { return value }
            let value = ResolutionFrame.inject(joining: graph) { factory() }
            state.withLock { $0 = value }
            return value
        }
        set {
            // The replaced value is released after the lock: its deinit may read this property.
            var replaced: T? = newValue
            state.withLock { swap(&$0, &replaced) }
        }
    }

    func resolvedOrNil() -> T? {
        state.withLock { $0 }
    }
}
