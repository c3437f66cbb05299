/// Resolves a class instance on first access and holds it weakly, to break reference cycles
/// (a child pointing back to its parent).
@propertyWrapper
public struct WeakLazyInjected<T> {
    private let box: Box

    /// Resolves the factory at `keyPath` of `Container.shared` on first access.
    public init(_ keyPath: KeyPath<Container, Factory<T>>) {
        box = Box(Container.shared[keyPath: keyPath])
    }

    /// Resolves the factory at `keyPath` of `C.shared` on first access.
    public init<C: SharedContainer>(_ keyPath: KeyPath<C, Factory<T>>) {
        box = Box(C.shared[keyPath: keyPath])
    }

    /// The instance while someone else holds it; `nil` after it is released.
    public var wrappedValue: T? {
        get { box.value }
        nonmutating set { box.set(newValue) }
    }

    /// The wrapper itself: `$parent.factory`, `$parent.resolvedOrNil()`.
    public var projectedValue: WeakLazyInjected<T> { self }

    /// The factory the instance comes from.
    public var factory: Factory<T> { box.factory }

    /// The instance if it has been resolved and is still alive, without resolving it.
    public func resolvedOrNil() -> T? { box.state.withLock { $0.object as? T } }

    /// Resolves the instance again now, first resetting the factory as `reset` says.
    public func resolve(reset: FactoryResetOptions = .none) {
        box.factory.reset(reset)
        box.set(ResolutionFrame.inject(joining: nil) { box.factory() })
    }

    // @unchecked Sendable: `state` is a `Locked`; the factory runs under `gate`.
    private final class Box: @unchecked Sendable {
        struct State {
            var isResolved = false
            weak var object: AnyObject?
        }

        let factory: Factory<T>
        /// The graph being resolved when the wrapper was made, which the first access joins.
        let graph: ResolutionGraph?
        let gate = Mutex()
        let state = Locked(State())

        init(_ factory: Factory<T>) {
            self.factory = factory
            graph = ResolutionFrame.current.currentGraph()
        }

        var value: T? {
            if let value = resolvedValue() { return value }
            gate.lock()
            defer { gate.unlock() }
            if let value = resolvedValue() { return value }
            let value = ResolutionFrame.inject(joining: graph) { factory() }
            set(value)
            return value
        }

        /// `.some(value or nil)` once resolved; `nil` before.
        private func resolvedValue() -> T?? {
            state.withLock { $0.isResolved ? .some($0.object as? T) : nil }
        }

        func set(_ value: T?) {
            state.withLock { state in
                state.isResolved = true
                state.object = value.map { $0 as AnyObject }
            }
        }
    }
}

extension WeakLazyInjected: @unchecked Sendable where T: Sendable {}
