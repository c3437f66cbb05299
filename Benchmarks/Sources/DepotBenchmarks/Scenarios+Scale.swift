import BenchmarkSupport
import Dependencies
import Depot
import Foundation
import Swinject

/// `scaling`, `register-10k` and `contention-2t`: a hot key among many, overriding among many,
/// and two threads (or more, with `--threads`) on one key.
extension Run {
    func scaleScenarios() {
        if includes("scaling") { scaling() }
        if includes("register-10k") { register10k() }
        if includes("contention-2t") { contention() }
    }

    /// A cached hit with `count` other factories registered and resolved in the same container.
    private func scaling() {
        for count in [10, 100, 1_000, 10_000] {
            let others = tags(count - 1)
            let container = Depot.Container()
            for tag in others { tag.registerAndResolve(in: container) }
            _ = container.cachedService()
            time("scaling", "Depot", variant: "\(count)") { n in
                for _ in 0..<n { blackHole(container.cachedService()) }
            }
            let swinject = SwinjectContainer()
            for tag in others { tag.registerAndResolve(in: swinject) }
            swinject.register(Service.self) { _ in Service() }.inObjectScope(.container)
            let resolver = swinject.synchronize()
            time("scaling", "Swinject", variant: "\(count)") { n in
                for _ in 0..<n { blackHole(resolver.resolve(Service.self)!) }
            }
            let dictionary = MutexDictionary()
            for tag in others { tag.insert(in: dictionary) }
            dictionary.insert(Service(), for: Service.self)
            time("scaling", "baseline-mutex-dict", variant: "\(count)") { n in
                for _ in 0..<n { blackHole(dictionary.lookup(Service.self)) }
            }
        }
    }

    /// Registering an override of a cached factory and resolving it, with 10,000 other cached
    /// instances in the container, and with none.
    private func register10k() {
        for count in [1, 10_000] {
            let others = tags(count - 1)
            let variant = "\(count)"
            let container = Depot.Container()
            for tag in others { tag.registerAndResolve(in: container) }
            time("register-10k", "Depot", variant: variant) { n in
                for _ in 0..<n {
                    container.cachedService.register { Service() }
                    blackHole(container.cachedService())
                }
            }
            let swinject = SwinjectContainer()
            for tag in others { tag.registerAndResolve(in: swinject) }
            let resolver = swinject.synchronize()
            time("register-10k", "Swinject", variant: variant) { n in
                for _ in 0..<n {
                    swinject.register(Service.self) { _ in Service() }.inObjectScope(.container)
                    blackHole(resolver.resolve(Service.self)!)
                }
            }
            let dictionary = MutexDictionary()
            for tag in others { tag.insert(in: dictionary) }
            time(
                "register-10k", "baseline-mutex-dict", variant: variant,
                note: "insert a new instance, look it up"
            ) { n in
                for _ in 0..<n {
                    dictionary.insert(Service(), for: Service.self)
                    blackHole(dictionary.lookup(Service.self))
                }
            }
        }
    }

    /// Two threads (or each count of `--threads`) resolving one cached key: nanoseconds per
    /// operation of all together.
    private func contention() {
        let container = Depot.Container()
        _ = container.cachedService()
        // Swinject's synchronized resolver locks every resolve, so two threads may share it.
        nonisolated(unsafe) let swinject = swinjectContainer(.container)
        let dictionary = MutexDictionary()
        dictionary.insert(Service(), for: Service.self)
        let reference = SharedReference()
        let subjects: [(String, @Sendable (Int) -> Void)] = [
            ("Depot", { n in for _ in 0..<n { blackHole(container.cachedService()) } }),
            // Depot's own part of a hit: the instance is discarded, so the optimizer drops the
            // retain and release of it that every other subject's caller makes. The lookup
            // itself calls into Depot's module, which the optimizer cannot see through.
            ("Depot, result discarded", { n in for _ in 0..<n { _ = container.cachedService() } }),
            ("Swinject", { n in for _ in 0..<n { blackHole(swinject.resolve(Service.self)!) } }),
            (
                "swift-dependencies",
                { n in for _ in 0..<n { blackHole(Dependency(\.service).wrappedValue) } }
            ),
            (
                "baseline-mutex-dict",
                { n in for _ in 0..<n { blackHole(dictionary.lookup(Service.self)) } }
            ),
            ("baseline-static-let", { n in for _ in 0..<n { blackHole(StaticService.shared) } }),
            // No lookup at all: only the retain and release of the one shared object that every
            // subject returning it makes, which is what two threads contend for.
            ("baseline-retain-release", { n in for _ in 0..<n { blackHole(reference.strong()) } }),
        ]
        for (subject, body) in subjects {
            let single = time("contention-2t", subject, variant: "1 thread", body)
            timeOnThreads("contention-2t", subject, single: single, body)
        }
    }
}
