import Dependencies
import Depot
import Swinject
import Synchronization

typealias SwinjectContainer = Swinject.Container

/// The service every scenario resolves: a small class, as most services are.
final class Service: Sendable {
    let id = 1
}

/// What `identifiedService`, an alias, gives `Service` as.
protocol Identified: AnyObject, Sendable {
    var id: Int { get }
}

extension Service: Identified {}

/// Five services for `injected5`.
final class Service1: Sendable { let id = 1 }
final class Service2: Sendable { let id = 2 }
final class Service3: Sendable { let id = 3 }
final class Service4: Sendable { let id = 4 }
final class Service5: Sendable { let id = 5 }

extension Depot.Container {
    var cachedService: Factory<Service> { self { Service() }.cached }
    /// The same, with the scope set by the method modifier, as FactoryKit's users write it.
    var scopedCachedService: Factory<Service> { self { Service() }.scope(.cached) }
    /// `cachedService` behind a protocol: an alias of it.
    var identifiedService: Factory<any Identified> { alias(\.cachedService) { $0 } }
    var forwardedService: Factory<any Identified> { self { self.cachedService() } }
    var singletonService: Factory<Service> { self { Service() }.singleton }
    var uniqueService: Factory<Service> { self { Service() } }
    var service1: Factory<Service1> { self { Service1() } }
    var service2: Factory<Service2> { self { Service2() } }
    var service3: Factory<Service3> { self { Service3() } }
    var service4: Factory<Service4> { self { Service4() } }
    var service5: Factory<Service5> { self { Service5() } }
}

/// An object with five injected services, resolved when it is made.
final class InjectedHolder {
    @Injected(\.service1) var service1
    @Injected(\.service2) var service2
    @Injected(\.service3) var service3
    @Injected(\.service4) var service4
    @Injected(\.service5) var service5
}

/// The same object, given its services.
final class ConstructedHolder {
    let service1: Service1
    let service2: Service2
    let service3: Service3
    let service4: Service4
    let service5: Service5

    init(_ s1: Service1, _ s2: Service2, _ s3: Service3, _ s4: Service4, _ s5: Service5) {
        service1 = s1
        service2 = s2
        service3 = s3
        service4 = s4
        service5 = s5
    }
}

/// The same object with swift-dependencies' property wrapper.
struct DependenciesHolder {
    @Dependency(\.service1) var service1
    @Dependency(\.service2) var service2
    @Dependency(\.service3) var service3
    @Dependency(\.service4) var service4
    @Dependency(\.service5) var service5
}

/// `[ObjectIdentifier: AnyObject]` behind a `Mutex`: the least a thread-safe cache can cost.
/// (The objects are `Sendable`, which changes nothing at run time: the same one reference.)
final class MutexDictionary: Sendable {
    let storage = Mutex<[ObjectIdentifier: any AnyObject & Sendable]>([:])

    func insert(_ object: any AnyObject & Sendable, for key: Any.Type) {
        storage.withLock { $0[ObjectIdentifier(key)] = object }
    }

    func lookup<T: AnyObject>(_ type: T.Type) -> T {
        storage.withLock { $0[ObjectIdentifier(type)] } as! T
    }
}

/// The process-wide instance a `static let` keeps.
enum StaticService {
    static let shared = Service()
}

/// One object whose reference is handed out, as any resolve of a kept instance hands it out:
/// the caller owns what it gets, so each call retains the object and the caller releases it.
final class SharedReference: Sendable {
    let service = Service()

    /// The service, retained: unoptimized, so that the retain stays.
    @inline(never)
    @_optimize(none)
    func strong() -> Service { service }
}

// swift-dependencies: a dependency's live value is made once and kept, so it is both "cached"
// and "singleton"; there is no unique lifetime.
private enum ServiceKey: DependencyKey {
    static let liveValue = Service()
}
private enum Service1Key: DependencyKey { static let liveValue = Service1() }
private enum Service2Key: DependencyKey { static let liveValue = Service2() }
private enum Service3Key: DependencyKey { static let liveValue = Service3() }
private enum Service4Key: DependencyKey { static let liveValue = Service4() }
private enum Service5Key: DependencyKey { static let liveValue = Service5() }

extension DependencyValues {
    var service: Service {
        get { self[ServiceKey.self] }
        set { self[ServiceKey.self] = newValue }
    }
    var service1: Service1 {
        get { self[Service1Key.self] }
        set { self[Service1Key.self] = newValue }
    }
    var service2: Service2 {
        get { self[Service2Key.self] }
        set { self[Service2Key.self] = newValue }
    }
    var service3: Service3 {
        get { self[Service3Key.self] }
        set { self[Service3Key.self] = newValue }
    }
    var service4: Service4 {
        get { self[Service4Key.self] }
        set { self[Service4Key.self] = newValue }
    }
    var service5: Service5 {
        get { self[Service5Key.self] }
        set { self[Service5Key.self] = newValue }
    }
}

/// A Swinject resolver, for a subject's loop. @unchecked Sendable: a synchronized resolver
/// locks every resolve, and an unsynchronized one is used by the one thread of its loop.
struct SendableResolver: @unchecked Sendable {
    let resolver: Swinject.Resolver
    init(_ resolver: Swinject.Resolver) { self.resolver = resolver }

    func resolve<T>(_ type: T.Type) -> T { resolver.resolve(type)! }
    func resolve<T>(_ type: T.Type, name: String) -> T { resolver.resolve(type, name: name)! }
}

/// A Swinject container that one subject's loop registers in. @unchecked Sendable: only the
/// one thread of that loop uses it.
struct SendableSwinject: @unchecked Sendable {
    let container: SwinjectContainer
}

/// A Swinject container with `Service` kept in `scope`.
func swinjectContainer(_ scope: Swinject.ObjectScope) -> Swinject.Resolver {
    let container = SwinjectContainer()
    container.register(Service.self) { _ in Service() }.inObjectScope(scope)
    return container.synchronize()
}
