import BenchmarkSupport
import Dependencies
import Depot
import Swinject

/// `cached-hit`, `singleton-hit`, `unique` and `injected5`: one resolve, or one object's five.
extension Run {
    func resolveScenarios() {
        if includes("cached-hit") {
            let container = Depot.Container()
            _ = container.cachedService()
            hit("cached-hit") { n in
                for _ in 0..<n { blackHole(container.cachedService()) }
            }
            _ = container.scopedCachedService()
            time("cached-hit", "Depot, scope(_:) in the declaration") { n in
                for _ in 0..<n { blackHole(container.scopedCachedService()) }
            }
        }
        if includes("singleton-hit") {
            let container = Depot.Container()
            _ = container.singletonService()
            hit("singleton-hit") { n in
                for _ in 0..<n { blackHole(container.singletonService()) }
            }
        }
        if includes("unique") { unique() }
        if includes("injected5") { injected5() }
    }

    /// A resolve that finds its kept instance.
    private func hit(_ scenario: String, depot: (Int) -> Void) {
        time(scenario, "Depot", depot)
        let swinject = swinjectContainer(.container)
        time(scenario, "Swinject", note: "ObjectScope.container, synchronized resolver") { n in
            for _ in 0..<n { blackHole(swinject.resolve(Service.self)!) }
        }
        time(scenario, "swift-dependencies", note: "liveValue, kept once per process") { n in
            for _ in 0..<n { blackHole(Dependency(\.service).wrappedValue) }
        }
        let dictionary = MutexDictionary()
        dictionary.insert(Service(), for: Service.self)
        time(scenario, "baseline-mutex-dict") { n in
            for _ in 0..<n { blackHole(dictionary.lookup(Service.self)) }
        }
        time(scenario, "baseline-static-let") { n in
            for _ in 0..<n { blackHole(StaticService.shared) }
        }
    }

    private func unique() {
        let container = Depot.Container()
        time("unique", "Depot") { n in
            for _ in 0..<n { blackHole(container.uniqueService()) }
        }
        let swinject = swinjectContainer(.transient)
        time("unique", "Swinject", note: "ObjectScope.transient") { n in
            for _ in 0..<n { blackHole(swinject.resolve(Service.self)!) }
        }
        time("unique", "baseline-direct") { n in
            for _ in 0..<n { blackHole(Service()) }
        }
    }

    /// An object with five injected `.unique` services; the baseline looks each up in a mutex
    /// dictionary and constructs it.
    private func injected5() {
        let container = Depot.Container()
        Depot.Container.$shared.withValue(container) {
            time("injected5", "Depot", note: "five @Injected .unique services") { n in
                for _ in 0..<n { blackHole(InjectedHolder()) }
            }
        }
        let swinject = SwinjectContainer()
        swinject.register(Service1.self) { _ in Service1() }
        swinject.register(Service2.self) { _ in Service2() }
        swinject.register(Service3.self) { _ in Service3() }
        swinject.register(Service4.self) { _ in Service4() }
        swinject.register(Service5.self) { _ in Service5() }
        swinject.register(ConstructedHolder.self) { r in
            ConstructedHolder(
                r.resolve(Service1.self)!, r.resolve(Service2.self)!, r.resolve(Service3.self)!,
                r.resolve(Service4.self)!, r.resolve(Service5.self)!)
        }
        let resolver = swinject.synchronize()
        time("injected5", "Swinject", note: "constructor injection, five .transient services") {
            n in
            for _ in 0..<n { blackHole(resolver.resolve(ConstructedHolder.self)!) }
        }
        time(
            "injected5", "swift-dependencies",
            note: "five @Dependency, each read once; kept values, nothing constructed"
        ) { n in
            for _ in 0..<n {
                let holder = DependenciesHolder()
                blackHole(holder.service1)
                blackHole(holder.service2)
                blackHole(holder.service3)
                blackHole(holder.service4)
                blackHole(holder.service5)
            }
        }
        let dictionary = MutexDictionary()
        for object: any AnyObject & Sendable in [
            Service1(), Service2(), Service3(), Service4(), Service5(),
        ] {
            dictionary.insert(object, for: type(of: object))
        }
        time("injected5", "baseline-mutex-dict", note: "five lookups plus five constructions") {
            n in
            for _ in 0..<n {
                blackHole(dictionary.lookup(Service1.self))
                blackHole(dictionary.lookup(Service2.self))
                blackHole(dictionary.lookup(Service3.self))
                blackHole(dictionary.lookup(Service4.self))
                blackHole(dictionary.lookup(Service5.self))
                blackHole(
                    ConstructedHolder(Service1(), Service2(), Service3(), Service4(), Service5()))
            }
        }
    }
}
