import Dependencies
import Depot
import Features
import Swinject

/// `cached-hit`, `cross-module-hit` (a container declared in another module), `singleton-hit`,
/// `unique` and `injected5`: one resolve, or one object's five.
extension Scenarios {
    static var resolve: [Subject] {
        hit("cached-hit") {
            let container = Depot.Container()
            _ = container.cachedService()
            return { n in for _ in 0..<n { blackHole(container.cachedService()) } }
        }
            + [
                Subject("cached-hit", "Depot, scope(_:) in the declaration") {
                    let container = Depot.Container()
                    _ = container.scopedCachedService()
                    return { n in for _ in 0..<n { blackHole(container.scopedCachedService()) } }
                },
                Subject("cached-hit", "Depot, registered closure") {
                    let container = Depot.Container()
                    container.cachedService.register { Service() }
                    _ = container.cachedService()
                    return { n in for _ in 0..<n { blackHole(container.cachedService()) } }
                },
                Subject("cached-hit", "Depot, forward") {
                    let container = Depot.Container()
                    _ = container.forwardedService()
                    return { n in for _ in 0..<n { blackHole(container.forwardedService()) } }
                },
                Subject("cached-hit", "Depot+alias", note: "an alias of the .cached service") {
                    let container = Depot.Container()
                    _ = container.identifiedService()
                    return { n in for _ in 0..<n { blackHole(container.identifiedService()) } }
                },
            ]
            + hit("cross-module-hit") {
                let container = FeatureContainer()
                _ = container.cachedFeature()
                return { n in for _ in 0..<n { blackHole(container.cachedFeature()) } }
            }
            + hit("singleton-hit") {
                let container = Depot.Container()
                _ = container.singletonService()
                return { n in for _ in 0..<n { blackHole(container.singletonService()) } }
            }
            + unique + injected5 + resetsDependents
    }

    /// What `manager.resetsDependents` costs: the hit and the `.unique` resolve of the scenarios
    /// above, in a container that records what each factory is built from.
    private static var resetsDependents: [Subject] {
        let note = "manager.resetsDependents on"
        return [
            Subject("cached-hit", "Depot+resetsDependents", note: note) {
                let container = Depot.Container()
                container.manager.resetsDependents = true
                _ = container.cachedService()
                return { n in for _ in 0..<n { blackHole(container.cachedService()) } }
            },
            Subject("unique", "Depot+resetsDependents", note: note) {
                let container = Depot.Container()
                container.manager.resetsDependents = true
                return { n in for _ in 0..<n { blackHole(container.uniqueService()) } }
            },
        ]
    }

    /// A resolve that finds its kept instance: Depot's, and the same for each peer and baseline.
    private static func hit(_ scenario: String, depot: @escaping @Sendable () -> Subject.Loop)
        -> [Subject]
    {
        [
            Subject(scenario, "Depot", setUp: depot),
            Subject(scenario, "Swinject", note: "ObjectScope.container, synchronized resolver") {
                let swinject = SendableResolver(swinjectContainer(.container))
                return { n in for _ in 0..<n { blackHole(swinject.resolve(Service.self)) } }
            },
            Subject(scenario, "swift-dependencies", note: "liveValue, kept once per process") {
                { n in for _ in 0..<n { blackHole(Dependency(\.service).wrappedValue) } }
            },
            Subject(scenario, "baseline-mutex-dict") {
                let dictionary = MutexDictionary()
                dictionary.insert(Service(), for: Service.self)
                return { n in for _ in 0..<n { blackHole(dictionary.lookup(Service.self)) } }
            },
            Subject(scenario, "baseline-static-let") {
                { n in for _ in 0..<n { blackHole(StaticService.shared) } }
            },
        ]
    }

    private static var unique: [Subject] {
        [
            Subject("unique", "Depot") {
                let container = Depot.Container()
                return { n in for _ in 0..<n { blackHole(container.uniqueService()) } }
            },
            Subject("unique", "Swinject", note: "ObjectScope.transient") {
                let swinject = SendableResolver(swinjectContainer(.transient))
                return { n in for _ in 0..<n { blackHole(swinject.resolve(Service.self)) } }
            },
            Subject("unique", "baseline-direct") {
                { n in for _ in 0..<n { blackHole(Service()) } }
            },
        ]
    }

    /// An object with five injected `.unique` services; the baseline looks each up in a mutex
    /// dictionary and constructs it.
    private static var injected5: [Subject] {
        [
            Subject("injected5", "Depot", note: "five @Injected .unique services") {
                let container = Depot.Container()
                return { n in
                    Depot.Container.$shared.withValue(container) {
                        for _ in 0..<n { blackHole(InjectedHolder()) }
                    }
                }
            },
            Subject(
                "injected5", "Swinject", note: "constructor injection, five .transient services"
            ) {
                let swinject = SwinjectContainer()
                swinject.register(Service1.self) { _ in Service1() }
                swinject.register(Service2.self) { _ in Service2() }
                swinject.register(Service3.self) { _ in Service3() }
                swinject.register(Service4.self) { _ in Service4() }
                swinject.register(Service5.self) { _ in Service5() }
                swinject.register(ConstructedHolder.self) { r in
                    ConstructedHolder(
                        r.resolve(Service1.self)!, r.resolve(Service2.self)!,
                        r.resolve(Service3.self)!, r.resolve(Service4.self)!,
                        r.resolve(Service5.self)!)
                }
                let resolver = SendableResolver(swinject.synchronize())
                return { n in
                    for _ in 0..<n { blackHole(resolver.resolve(ConstructedHolder.self)) }
                }
            },
            Subject(
                "injected5", "swift-dependencies",
                note: "five @Dependency, each read once; kept values, nothing constructed"
            ) {
                { n in
                    for _ in 0..<n {
                        let holder = DependenciesHolder()
                        blackHole(holder.service1)
                        blackHole(holder.service2)
                        blackHole(holder.service3)
                        blackHole(holder.service4)
                        blackHole(holder.service5)
                    }
                }
            },
            Subject(
                "injected5", "baseline-mutex-dict", note: "five lookups plus five constructions"
            ) {
                let dictionary = MutexDictionary()
                for object: any AnyObject & Sendable in [
                    Service1(), Service2(), Service3(), Service4(), Service5(),
                ] {
                    dictionary.insert(object, for: type(of: object))
                }
                return { n in
                    for _ in 0..<n {
                        blackHole(dictionary.lookup(Service1.self))
                        blackHole(dictionary.lookup(Service2.self))
                        blackHole(dictionary.lookup(Service3.self))
                        blackHole(dictionary.lookup(Service4.self))
                        blackHole(dictionary.lookup(Service5.self))
                        blackHole(
                            ConstructedHolder(
                                Service1(), Service2(), Service3(), Service4(), Service5()))
                    }
                }
            },
        ]
    }
}
