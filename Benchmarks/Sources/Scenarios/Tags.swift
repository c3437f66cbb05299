import Depot
import Swinject
import Synchronization

/// Distinct types made at run time, for scenarios that need thousands of factories: each number
/// is spelled in binary as nested `Zero<…>` / `One<…>`, so `tag(5)` is `One<Zero<One<Leaf>>>`.
/// Each one gives a factory of its own (`Tagged<T>` is its type) in Depot, a service type in
/// Swinject and a key in the dictionary baseline.
protocol Tag: SendableMetatype {}
enum Leaf: Tag {}
enum Zero<Rest: Tag>: Tag {}
enum One<Rest: Tag>: Tag {}

/// The service of the tag `T`.
final class Tagged<T: Tag>: Sendable {}

/// The distinct tag types 0..<count.
func tags(_ count: Int) -> [any Tag.Type] {
    func wrap<T: Tag>(_: T.Type, bit: Int) -> any Tag.Type {
        bit == 0 ? Zero<T>.self : One<T>.self
    }
    return (0..<count).map { number in
        var type: any Tag.Type = Leaf.self
        var rest = number
        repeat {
            type = wrap(type, bit: rest & 1)
            rest >>= 1
        } while rest > 0
        return type
    }
}

extension Depot.Container {
    /// The factory of the tag `T`: one key per tag type.
    func tagged<T: Tag>(_: T.Type) -> Factory<Tagged<T>> {
        self(key: "tagged") { Tagged<T>() }.cached
    }
}

extension Tag {
    /// Registers this tag's factory in `container` and resolves it.
    static func registerAndResolve(in container: Depot.Container) {
        container.tagged(Self.self).register { Tagged<Self>() }
        _ = container.tagged(Self.self)()
    }

    /// Resolves this tag's declared factory in `container`, registering nothing.
    static func resolve(in container: Depot.Container) {
        _ = container.tagged(Self.self)()
    }

    /// Registers this tag's service in `container`, kept, and resolves it.
    static func registerAndResolve(in container: SwinjectContainer) {
        container.register(Tagged<Self>.self) { _ in Tagged<Self>() }.inObjectScope(.container)
        _ = container.resolve(Tagged<Self>.self)
    }

    /// Adds this tag's service to `dictionary`.
    static func insert(in dictionary: MutexDictionary) {
        dictionary.insert(Tagged<Self>(), for: Tagged<Self>.self)
    }

    /// Makes this tag's service, to size it.
    static func make() -> AnyObject { Tagged<Self>() }
}
