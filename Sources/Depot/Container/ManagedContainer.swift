#if canImport(SwiftUI)
    import SwiftUI
#endif

/// A container: a class whose extensions declare factories, and whose ``ContainerManager``
/// keeps their registrations and caches.
public protocol ManagedContainer: AnyObject, Sendable {
    /// The manager that owns this container's registrations, caches and settings.
    var manager: ContainerManager { get }
}

/// A container with a shared instance, which property wrappers such as `@Injected` resolve from.
public protocol SharedContainer: ManagedContainer {
    /// The instance that property wrappers and `dependency(_:)` use.
    static var shared: Self { get }
}

/// A container that registers factories or contexts of its own before its first use.
public protocol AutoRegistering {
    /// Registers what the container needs before its first use.
    func autoRegister()
}

extension ManagedContainer {
    /// Declares a factory: `self { LiveAPI() }` in a container extension.
    ///
    /// - Parameters:
    ///   - key: the factory's key; the property's name by default.
    ///   - factory: makes a new instance.
    ///   - isolation: the actor the declaration is isolated to, if any; leave the default.
    ///     Debug builds check that a factory declared on an actor is resolved on it.
    ///   - file: the declaring file, `Module/File.swift`; leave the default. Its module is part
    ///     of the key, so two modules that declare one name and type declare two factories.
    /// - Returns: the factory, ready for modifiers such as `.cached`.
    @inlinable
    public func callAsFunction<T>(
        key: StaticString = #function, _ factory: @escaping () -> T,
        isolation: (any Actor)? = #isolation, file: StaticString = #fileID
    ) -> Factory<T> {
        Factory(self, key: key, factory, isolation: isolation, file: file)
    }

    /// Declares a factory that takes a parameter: `self { (id: Int) in User(id: id) }`.
    @inlinable
    public func callAsFunction<P, T>(
        key: StaticString = #function, _ factory: @escaping (P) -> T,
        isolation: (any Actor)? = #isolation, file: StaticString = #fileID
    ) -> ParameterFactory<P, T> {
        ParameterFactory(self, key: key, factory, isolation: isolation, file: file)
    }

    /// Declares a factory; the same as `self { ... }`.
    @inlinable
    public func makes<T>(
        key: StaticString = #function, _ factory: @escaping () -> T,
        isolation: (any Actor)? = #isolation, file: StaticString = #fileID
    ) -> Factory<T> {
        Factory(self, key: key, factory, isolation: isolation, file: file)
    }

    /// Declares a parameterised factory; the same as `self { (p: P) in ... }`.
    @inlinable
    public func makes<P, T>(
        key: StaticString = #function, _ factory: @escaping (P) -> T,
        isolation: (any Actor)? = #isolation, file: StaticString = #fileID
    ) -> ParameterFactory<P, T> {
        ParameterFactory(self, key: key, factory, isolation: isolation, file: file)
    }

    /// Declares a factory that someone must register before it is resolved.
    ///
    /// Resolving it unregistered returns `nil`, or stops with the container, key and type named
    /// when `manager.promiseTriggersError` is on (the default in debug builds).
    ///
    /// - Parameters:
    ///   - key: the factory's key; the property's name by default.
    ///   - file: where the factory is declared, for the message; the caller's by default.
    ///   - line: the line of the declaration, for the message.
    ///   - fileID: the declaring file, `Module/File.swift`: its module is part of the key.
    public func promised<T>(
        key: StaticString = #function, file: StaticString = #file, line: UInt = #line,
        fileID: StaticString = #fileID
    ) -> Factory<T?> {
        Factory<T?>(self, key: key, { nil }, file: fileID).promising(at: file, line: line)
    }

    /// Declares a parameterised factory that someone must register before it is resolved.
    public func promised<P, T>(
        key: StaticString = #function, file: StaticString = #file, line: UInt = #line,
        fileID: StaticString = #fileID
    ) -> ParameterFactory<P, T?> {
        ParameterFactory<P, T?>(self, key: key, { _ in nil }, file: fileID)
            .promising(at: file, line: line)
    }

    /// Calls `decorator` with every instance this container resolves.
    public func decorator(_ decorator: ((Any) -> Void)?) {
        manager.decorator = decorator
    }

    /// Forgets registrations, contexts and cached instances, as `options` says.
    public func reset(options: FactoryResetOptions = .all) {
        manager.reset(options: options)
    }
}

extension SharedContainer {
    #if canImport(SwiftUI)
        /// Runs `transform` with this container: a place to register overrides. Returns a
        /// view, so it can stand in a preview's view builder.
        @discardableResult
        public func callAsFunction(_ transform: (Self) -> Void) -> EmptyView {
            transform(self)
            return EmptyView()
        }

        /// Runs `transform` with this container, in a preview's view builder.
        @discardableResult
        public func preview(_ transform: (Self) -> Void) -> EmptyView {
            transform(self)
            return EmptyView()
        }

        /// Runs `transform` with the shared container, in a preview's view builder.
        @discardableResult
        public static func preview(_ transform: (Self) -> Void) -> EmptyView {
            transform(shared)
            return EmptyView()
        }
    #else
        /// Runs `transform` with this container: a place to register overrides.
        ///
        /// ```swift
        /// Container.shared { $0.api.register { MockAPI() } }
        /// ```
        public func callAsFunction(_ transform: (Self) -> Void) {
            transform(self)
        }
    #endif

    /// Runs `transform`, which may be isolated to an actor (`{ @MainActor in ... }`), with this
    /// container, and returns it.
    ///
    /// ```swift
    /// await Container.shared { @MainActor in $0.viewModel.register { MockViewModel() } }
    /// ```
    @discardableResult
    public func callAsFunction(_ transform: @Sendable @isolated(any) (Self) async -> Void) async
        -> Self
    {
        await transform(self)
        return self
    }
}

extension ManagedContainer {
    /// Runs `transform` with this container and returns it.
    @discardableResult
    public func with(_ transform: (Self) -> Void) -> Self {
        transform(self)
        return self
    }

    /// Runs `transform`, which may be isolated to an actor, with this container, and returns it.
    @discardableResult
    public func with(_ transform: @Sendable @isolated(any) (Self) async -> Void) async -> Self {
        await transform(self)
        return self
    }
}
