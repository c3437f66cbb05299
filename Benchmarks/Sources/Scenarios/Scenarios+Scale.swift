import Dependencies
import Depot
import Foundation
import Swinject

/// `scaling`, `register-10k` and `contention-2t`: a hot key among many, overriding among many,
/// and two threads (or more, `DEPOT_BENCHMARK_THREADS`) on one key.
extension Scenarios {
    static var scale: [Subject] {
        [10, 100, 1_000, 10_000].flatMap(scaling) + [1, 10_000].flatMap(register10k) + contention
    }

    /// A cached hit with `count` other factories registered and resolved in the same container.
    private static func scaling(_ count: Int) -> [Subject] {
        let variant = "\(count)"
        return [
            Subject("scaling", "Depot", variant: variant) {
                let container = Depot.Container()
                for tag in tags(count - 1) { tag.registerAndResolve(in: container) }
                _ = container.cachedService()
                return { n in for _ in 0..<n { blackHole(container.cachedService()) } }
            },
            Subject("scaling", "Swinject", variant: variant) {
                let swinject = SwinjectContainer()
                for tag in tags(count - 1) { tag.registerAndResolve(in: swinject) }
                swinject.register(Service.self) { _ in Service() }.inObjectScope(.container)
                let resolver = SendableResolver(swinject.synchronize())
                return { n in for _ in 0..<n { blackHole(resolver.resolve(Service.self)) } }
            },
            Subject("scaling", "baseline-mutex-dict", variant: variant) {
                let dictionary = MutexDictionary()
                for tag in tags(count - 1) { tag.insert(in: dictionary) }
                dictionary.insert(Service(), for: Service.self)
                return { n in for _ in 0..<n { blackHole(dictionary.lookup(Service.self)) } }
            },
        ]
    }

    /// Registering an override of a cached factory and resolving it, with 10,000 other cached
    /// instances in the container, and with none.
    private static func register10k(_ count: Int) -> [Subject] {
        let variant = "\(count)"
        return [
            Subject("register-10k", "Depot", variant: variant) {
                let container = Depot.Container()
                for tag in tags(count - 1) { tag.registerAndResolve(in: container) }
                return { n in
                    for _ in 0..<n {
                        container.cachedService.register { Service() }
                        blackHole(container.cachedService())
                    }
                }
            },
            Subject("register-10k", "Swinject", variant: variant) {
                let swinject = SwinjectContainer()
                for tag in tags(count - 1) { tag.registerAndResolve(in: swinject) }
                let container = SendableSwinject(container: swinject)
                let resolver = SendableResolver(swinject.synchronize())
                return { n in
                    for _ in 0..<n {
                        container.container.register(Service.self) { _ in Service() }
                            .inObjectScope(.container)
                        blackHole(resolver.resolve(Service.self))
                    }
                }
            },
            Subject(
                "register-10k", "baseline-mutex-dict", variant: variant,
                note: "insert a new instance, look it up"
            ) {
                let dictionary = MutexDictionary()
                for tag in tags(count - 1) { tag.insert(in: dictionary) }
                return { n in
                    for _ in 0..<n {
                        dictionary.insert(Service(), for: Service.self)
                        blackHole(dictionary.lookup(Service.self))
                    }
                }
            },
        ]
    }

    /// One thread, then two (or each of `Scenarios.threads`), resolving one cached key:
    /// nanoseconds per operation of all together.
    private static var contention: [Subject] {
        let subjects: [(String, @Sendable () -> Subject.Loop)] = [
            (
                "Depot",
                {
                    let container = Depot.Container()
                    _ = container.cachedService()
                    return { n in for _ in 0..<n { blackHole(container.cachedService()) } }
                }
            ),
            // Depot's own part of a hit: the instance is discarded, so the optimizer drops the
            // retain and release of it that every other subject's caller makes. The lookup
            // itself calls into Depot's module, which the optimizer cannot see through.
            (
                "Depot, result discarded",
                {
                    let container = Depot.Container()
                    _ = container.cachedService()
                    return { n in for _ in 0..<n { _ = container.cachedService() } }
                }
            ),
            (
                // Swinject's synchronized resolver locks every resolve, so threads may share it.
                "Swinject",
                {
                    let swinject = SendableResolver(swinjectContainer(.container))
                    return { n in for _ in 0..<n { blackHole(swinject.resolve(Service.self)) } }
                }
            ),
            (
                "swift-dependencies",
                { { n in for _ in 0..<n { blackHole(Dependency(\.service).wrappedValue) } } }
            ),
            (
                "baseline-mutex-dict",
                {
                    let dictionary = MutexDictionary()
                    dictionary.insert(Service(), for: Service.self)
                    return { n in for _ in 0..<n { blackHole(dictionary.lookup(Service.self)) } }
                }
            ),
            (
                "baseline-static-let",
                { { n in for _ in 0..<n { blackHole(StaticService.shared) } } }
            ),
            // No lookup at all: only the retain and release of the one shared object that every
            // subject returning it makes, which is what the threads contend for.
            (
                "baseline-retain-release",
                {
                    let reference = SharedReference()
                    return { n in for _ in 0..<n { blackHole(reference.strong()) } }
                }
            ),
        ]
        return subjects.flatMap { name, setUp in onEachThreadCount("contention-2t", name, setUp) }
    }
}
