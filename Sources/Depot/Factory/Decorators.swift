// Decorators that wrap a factory's value, added by whichever module wants them: kept with the
// factory's registration, as contributions are with a collection's, and wrapped around the
// closure that applies when a value is made, so what a scope keeps is the wrapped value.

extension ManagedContainer {
    /// Wraps what the factory at `keyPath` makes in `wrap`, from any module:
    /// `container.decorate(\.api, order: 10) { TimedAPI($0) }`.
    ///
    /// Decorators apply in ascending `order`, then by `name`, whatever order modules added them
    /// in, innermost first, around whatever the factory makes: its declaration, a registered
    /// closure, a context's or a test's mock. A scope keeps the wrapped value, made once, and
    /// `onDispose` runs once, on it; FactoryKit's
    /// ``FactoryModifying/decorator(_:caller:)-((Self.T)->Void,_)`` sees it too. Decorators
    /// survive later registrations and a factory's `reset()`; a child
    /// container sees its parent's and its own; `push()`, `pop()` and `manager.reset()` treat
    /// them as registrations. Adding one drops what the factory keeps. A decorator that resolves
    /// the factory it decorates is a cycle. See <doc:ModularApps>.
    ///
    /// - Parameters:
    ///   - keyPath: the factory to decorate, of any kind.
    ///   - order: where the decorator wraps: lower orders are nearer the made value.
    ///   - name: tells decorators of one factory apart, whichever module adds them: a second
    ///     with the same name replaces the first; ``removeDecorator(named:from:)`` takes it.
    ///     The name of the function that adds it by default (`registerTiming()`): name each
    ///     one where one function adds two to the same factory.
    ///   - wrap: makes the value the factory gives from the one it made (or the decorator of
    ///     lower order gave).
    public func decorate<F: FactoryModifying>(
        _ keyPath: KeyPath<Self, F>, order: Int = 0, name: StaticString = #function,
        _ wrap: @escaping (F.T) -> F.T
    ) {
        changeAddition(to: self[keyPath: keyPath].registration.key) {
            $0.decorations[.decorator(name)] = .some(Addition(order, name.description, wrap))
        }
    }

    /// Removes the decorator named `name` from the factory at `keyPath`, in this container: a
    /// child's removal hides its parent's decorator in the child, and never reaches the parent.
    public func removeDecorator(
        named name: StaticString, from keyPath: KeyPath<Self, some FactoryModifying>
    ) {
        // A removal stays as `nil`, so that it hides a parent's decorator too.
        changeAddition(to: self[keyPath: keyPath].registration.key) {
            $0.decorations[.decorator(name)] = .some(nil)
        }
    }
}

extension FactoryKey {
    /// The key of a decorator named `name`, under which a factory's registration keeps it: a
    /// key as a contribution's is, so both share the code of one kind of dictionary. No module
    /// is part of it, so a decorator of one name is the same whichever module adds or removes it.
    static func decorator(_ name: StaticString) -> FactoryKey {
        FactoryKey(name: name, type: Addition.self)
    }
}

extension FactoryRegistration {
    /// `body`, with the factory's decorators wrapped around what it makes: those
    /// `registration` (its container's) holds, and those of the container's parent, if any,
    /// that it does not replace.
    func decorated(_ body: Body, by registration: ContainerManager.Registration) -> Body {
        var byName = registration.fields.decorations
        if let parent = manager.state.withLock({ $0.parent }) {
            byName.merge(parent.manager.added(to: key, \.decorations)) { own, _ in own }
        }
        let wraps = inOrder(byName.values.compactMap { $0 })
        guard !wraps.isEmpty else { return body }
        // Each is a `(T) -> T`, as `decorate` keeps it for this factory's key and type.
        let wrap = { (value: T) in wraps.reduce(value) { ($1 as! (T) -> T)($0) } }
        return switch body {
        case .plain(let make): .plain { wrap(make()) }
        case .parameterised(let make): .parameterised { wrap(make($0)) }
        case .alias(let make): .alias { wrap(make($0, $1)) }
        case .async(let make): .async { wrap(try await make()) }
        case .asyncParameterised(let make): .asyncParameterised { wrap(try await make($0)) }
        case .asyncAlias(let source):
            .async { [container] in
                wrap(try await Body.resolve(source, in: container, alias: nil))
            }
        }
    }
}
