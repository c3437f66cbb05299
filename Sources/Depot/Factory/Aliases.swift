// Aliases: a factory that stands for another of its container, so that one instance is
// resolved behind several types. An alias is a `.unique` factory whose closure resolves its
// source through the source's own factory value: it gets the source's instance, scope,
// registrations and contexts, and keeps nothing itself, so the instance is disposed once, by
// the source's scope. It has a step of its own, so a cycle through it names it. The source comes
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
    @inlinable
    public func alias<Source, T>(
        _ source: @escaping (Self) -> Factory<Source>, key: StaticString = #function,
        file: StaticString = #fileID, _ convert: @escaping (Source) -> T
    ) -> Factory<T> {
        Factory(self, key: key, { [self] in convert(source(self)()) }, file: file).aliasing
    }

    /// Declares an async factory that resolves the async factory at `source`, as
    /// ``alias(_:key:file:_:)-((Self)->Factory<Source>,_,_,_)`` does.
    @inlinable
    public func alias<Source, T>(
        _ source: @escaping (Self) -> AsyncFactory<Source>, key: StaticString = #function,
        file: StaticString = #fileID, _ convert: @escaping (Source) -> T
    ) -> AsyncFactory<T> {
        AsyncFactory(self, key: key, { [self] in convert(try await source(self)()) }, file: file)
            .aliasing
    }
}

extension FactoryModifying {
    /// The factory as an alias: `.unique` (a scope given after it is its own), safe in strict
    /// tests, which judge its source.
    @inlinable
    var aliasing: Self {
        var alias = self.unique.safeInTests
        #if DEBUG
            alias.registration.isAlias = true
        #endif
        return alias
    }
}

extension FactoryRegistration {
    /// Logs once, in a debug build, that this factory is an alias that keeps instances in
    /// `scope`, its own.
    @inline(__always)
    func checkAliasScope(_ scope: Scope) {
        #if DEBUG
            guard isAlias, scope !== Scope.unique else { return }
            manager.warnOnce(
                about: key,
                "Depot: \(stepWithoutParameter) is an alias with the \(scope) scope of its own: "
                    + "it keeps its source's instance for a lifetime of its own, past the "
                    + "source's resets. Remove the scope: the source's keeps the one instance.")
        #endif
    }
}
