// Aliases: a factory that stands for another of its container, so that one instance is
// resolved behind several types. An alias is a `.unique` factory whose closure resolves its
// source through the source's own factory value: it gets the source's instance, scope,
// registrations and contexts, and keeps nothing itself, so the instance is disposed once, by
// the source's scope. Where nothing changes it, the engine calls its closure without a step of
// its own, and the source's resolve enters the alias's step where it goes past a hit, so a
// cycle through the alias names it. An async alias's closure is synchronous: it returns its
// source's plain hit (`plainHit()`), so that its resolve returns that hit before any `await`,
// or, asked for what to await where there is none, its source's resolve. The closures are given the
// container, so they capture only the source and the conversion, which, written as literals,
// the optimiser folds into them: making the factory value allocates nothing. The source comes
// as a function, which a key path literal converts to: its resolve then calls the property's
// getter, where applying a `KeyPath` would project it through the runtime on every resolve.

extension ManagedContainer {
    /// Declares a factory that resolves the factory at `source` and returns its instance as
    /// `convert` says, in a container extension:
    /// `var logging: Factory<any Logging> { alias(\.fileLogger) { $0 } }`.
    ///
    /// The alias resolves its source each time, so it has the source's instance, scope,
    /// registrations and contexts: a mock registered for the source is seen through every
    /// alias; one registered for the alias replaces the alias alone. Give it no scope: a scope
    /// of its own keeps the source's instance past the source's resets (a second lifetime),
    /// which a debug build logs once and ``validate(_:)`` reports (``ValidationProblem/Kind/aliasWithOwnScope``).
    ///
    /// - Parameters:
    ///   - source: the factory the alias stands for, in this container: its key path
    ///     (`\.fileLogger`), which Swift passes as the function that reads the property.
    ///   - key: the alias's key; the property's name by default.
    ///   - file: the declaring file, `Module/File.swift`; leave the default.
    ///   - convert: turns the source's instance into the alias's type, checked by the
    ///     compiler: `{ $0 }` for a protocol the source's type conforms to.
    @_alwaysEmitIntoClient
    public func alias<Source, T>(
        _ source: @escaping (Self) -> Factory<Source>, key: StaticString = #function,
        file: StaticString = #fileID, _ convert: @escaping (Source) -> T
    ) -> Factory<T> {
        // The container a factory is given is the one that declared it, or its parent, or a
        // lifetime scope of it: a `Self` (`makeChild()` and `newLifetimeScope()` return one).
        var alias = FactoryRegistration<Void, T>(
            container: self, name: key,
            body: .alias { convert(source($0 as! Self).registration.resolve((), alias: $1)) },
            file: file)
        alias.makeAlias()
        return Factory(alias)
    }

    /// Declares an async factory that resolves the async factory at `source`, as
    /// ``alias(_:key:file:_:)-((Self)->Factory<Source>,_,_,_)`` does.
    @_alwaysEmitIntoClient
    public func alias<Source, T>(
        _ source: @escaping (Self) -> AsyncFactory<Source>, key: StaticString = #function,
        file: StaticString = #fileID, _ convert: @escaping (Source) -> T
    ) -> AsyncFactory<T> {
        var alias = FactoryRegistration<Void, T>(
            container: self, name: key,
            body: .asyncAlias { container, awaiting in
                guard awaiting else {
                    return (source(container as! Self).registration.plainHit().map(convert), nil)
                }
                let resolve: FactoryRegistration<Void, T>.AsyncAliasMake = {
                    convert(try await source($0 as! Self).registration.resolveAsync((), alias: $1))
                }
                return (nil, resolve)
            }, file: file)
        alias.makeAlias()
        return AsyncFactory(alias)
    }
}

extension FactoryRegistration {
    /// Makes the factory an alias: `.unique` (a scope given after it is its own), safe in
    /// strict tests, which judge its source. (Built in place: an initialiser of its own made
    /// the optimiser copy the value around its resolve.)
    @inlinable
    mutating func makeAlias() {
        declaredScope = .builtIn(.unique)
        isSafeInTests = true
    }

    /// Logs once, in a debug build, that this factory is an alias that keeps instances in
    /// `scope`, its own.
    @inline(__always)
    func checkAliasScope(_ scope: Scope) {
        #if DEBUG
            guard body.isAlias, scope !== Scope.unique else { return }
            manager.warnOnce(
                about: key,
                "Depot: \(stepWithoutParameter) is an alias with the \(scope) scope of its own: "
                    + "it keeps its source's instance for a lifetime of its own, past the "
                    + "source's resets. Remove the scope: the source's keeps the one instance.")
        #endif
    }
}

extension FactoryRegistration.Body {
    /// For an async alias that nothing changes (its plain decision a miss with a plain `plan`),
    /// its source's plain hit in `container`, converted; otherwise `nil`.
    @_alwaysEmitIntoClient
    @inline(__always)
    func sourceHit(in container: any ManagedContainer, plan: ContainerManager.Plan) -> T? {
        guard case .asyncAlias(let source) = self, plan.isPlainUnique else { return nil }
        return source(container, false).hit
    }

    /// An async alias's resolve of its source in `container`, passing `alias` on. Apart from
    /// `make`, so that the generic code compiled once lays out what the closure gives (at run
    /// time) only for an alias.
    @inline(never)
    nonisolated(nonsending) static func resolve(
        _ source: FactoryRegistration.AsyncAlias, in container: any ManagedContainer,
        alias: FactoryKey?
    ) async throws -> T {
        // Asked for what to await, the closure gives its source's resolve.
        try await source(container, true).resolve!(container, alias)
    }
}
