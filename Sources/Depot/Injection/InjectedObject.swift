#if canImport(SwiftUI) && canImport(Combine)
    import Combine
    import SwiftUI

    /// Resolves an `ObservableObject` view model once per view identity, as `@StateObject` does.
    ///
    /// ```swift
    /// struct ContentView: View {
    ///     @InjectedObject(\.contentViewModel) var model
    /// }
    /// ```
    @available(iOS 14, macOS 11, tvOS 14, watchOS 7, *)
    @MainActor
    @propertyWrapper
    public struct InjectedObject<T: ObservableObject>: DynamicProperty {
        @StateObject private var dependency: T

        /// Resolves the factory at `keyPath` of `Container.shared`.
        public init(_ keyPath: KeyPath<Container, Factory<T>>) {
            let factory = Container.shared[keyPath: keyPath]
            _dependency = StateObject(wrappedValue: factory())
        }

        /// Resolves the factory at `keyPath` of `C.shared`.
        public init<C: SharedContainer>(_ keyPath: KeyPath<C, Factory<T>>) {
            let factory = C.shared[keyPath: keyPath]
            _dependency = StateObject(wrappedValue: factory())
        }

        /// Takes `wrappedValue` instead of resolving: for previews.
        public init(_ wrappedValue: T) {
            _dependency = StateObject(wrappedValue: wrappedValue)
        }

        /// The view model.
        public var wrappedValue: T { dependency }

        /// Bindings to the view model's properties.
        public var projectedValue: ObservedObject<T>.Wrapper { $dependency }
    }

    /// Resolves an `@Observable` view model once per view identity, as `@State` does.
    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
    @MainActor
    @propertyWrapper
    public struct InjectedObservable<T: Observable>: DynamicProperty {
        @State private var dependency: T

        /// Resolves the factory at `keyPath` of `Container.shared`.
        public init(_ keyPath: KeyPath<Container, Factory<T>>) {
            _dependency = State(wrappedValue: Container.shared[keyPath: keyPath]())
        }

        /// Resolves the factory at `keyPath` of `C.shared`.
        public init<C: SharedContainer>(_ keyPath: KeyPath<C, Factory<T>>) {
            _dependency = State(wrappedValue: C.shared[keyPath: keyPath]())
        }

        /// Takes `wrappedValue` instead of resolving: for previews.
        public init(_ wrappedValue: @autoclosure @escaping () -> T) {
            _dependency = State(wrappedValue: wrappedValue())
        }

        /// The view model.
        public var wrappedValue: T { dependency }

        /// Bindings to the view model's properties.
        public var projectedValue: Binding<T> { $dependency }
    }
#endif
