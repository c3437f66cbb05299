import BenchmarkSupport
import Depot
import Foundation
import Swinject

// request: a server's request. A lifetime scope of the app's container, then a handler made of
// five objects: the handler (unique), a unit of work (unique), the request's context (one per
// scope), and two app-wide services (singletons).
final class AppConfig: Sendable {}
final class AppClient: Sendable {}
final class RequestScope: Sendable {}
final class UnitOfWork: Sendable {}
final class RequestHandler: Sendable {
    let config: AppConfig
    let client: AppClient
    let scope: RequestScope
    let work: UnitOfWork
    init(_ config: AppConfig, _ client: AppClient, _ scope: RequestScope, _ work: UnitOfWork) {
        (self.config, self.client, self.scope, self.work) = (config, client, scope, work)
    }
}

extension Depot.Container {
    var appConfig: Factory<AppConfig> { self { AppConfig() }.singleton }
    var appClient: Factory<AppClient> { self { AppClient() }.singleton }
    var requestScope: Factory<RequestScope> { self { RequestScope() }.cached }
    var unitOfWork: Factory<UnitOfWork> { self { UnitOfWork() } }
    var requestHandler: Factory<RequestHandler> {
        self {
            RequestHandler(
                self.appConfig(), self.appClient(), self.requestScope(), self.unitOfWork())
        }
    }
}

extension Run {
    func requestScenario() {
        guard includes("request") else { return }
        let root = Depot.Container()
        _ = root.requestHandler()
        let swinject = SwinjectContainer()
        swinject.register(AppConfig.self) { _ in AppConfig() }.inObjectScope(.container)
        swinject.register(AppClient.self) { _ in AppClient() }.inObjectScope(.container)
        swinject.register(UnitOfWork.self) { _ in UnitOfWork() }.inObjectScope(.transient)
        swinject.register(RequestHandler.self) { r in
            RequestHandler(
                r.resolve(AppConfig.self)!, r.resolve(AppClient.self)!,
                r.resolve(RequestScope.self)!, r.resolve(UnitOfWork.self)!)
        }.inObjectScope(.transient)
        nonisolated(unsafe) let sharedSwinject = swinject
        // What every request shares in `baseline-shared`, as Depot's singletons are.
        let sharedConfig = AppConfig()
        let sharedClient = AppClient()
        let subjects: [(String, String?, @Sendable (Int) -> Void)] = [
            (
                "Depot", "newLifetimeScope() and the handler",
                { n in
                    for _ in 0..<n { blackHole(root.newLifetimeScope().requestHandler()) }
                }
            ),
            (
                "Swinject",
                "a child container per request, RequestScope registered in it, synchronized",
                { n in
                    for _ in 0..<n {
                        // A child shares its parent's lock and resolution depth: unsynchronized,
                        // requests on several threads corrupt the depth and Swinject stops with
                        // "Infinite recursive call" (seen at 16 threads).
                        let child = SwinjectContainer(parent: sharedSwinject)
                        child.register(RequestScope.self) { _ in RequestScope() }
                            .inObjectScope(.container)
                        blackHole(child.synchronize().resolve(RequestHandler.self)!)
                    }
                }
            ),
            (
                "baseline-direct", "the five objects built by hand",
                { n in
                    for _ in 0..<n {
                        blackHole(
                            RequestHandler(AppConfig(), AppClient(), RequestScope(), UnitOfWork()))
                    }
                }
            ),
            (
                "baseline-shared", "built by hand around the same two app-wide objects",
                { n in
                    for _ in 0..<n {
                        blackHole(
                            RequestHandler(sharedConfig, sharedClient, RequestScope(), UnitOfWork())
                        )
                    }
                }
            ),
        ]
        for (subject, note, body) in subjects {
            let single = time("request", subject, variant: "1 thread", note: note, body)
            timeOnThreads("request", subject, single: single, body)
        }
    }

    /// Times `body` on each count of `threads`, as the scenario's "N threads" variants. The
    /// iterations come from `single`, one thread's nanoseconds per operation (a thread's start
    /// would distort calibrating on several), and each thread does an N-th of one thread's
    /// round, so that a round lasts no longer than one thread's when the threads do not scale.
    func timeOnThreads(
        _ scenario: String, _ subject: String, single: Double,
        _ body: @escaping @Sendable (Int) -> Void
    ) {
        for count in threads {
            time(
                scenario, subject, variant: "\(count) threads", operations: count,
                nsPerOp: single * Double(count)
            ) { n in
                Self.onThreads(count, n, body)
            }
        }
    }

    /// Runs `body(n)` on `count` threads at once, and returns when all are done.
    static func onThreads(_ count: Int, _ n: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let ready = DispatchGroup()
        let start = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        for _ in 0..<count {
            ready.enter()
            done.enter()
            Thread.detachNewThread {
                ready.leave()
                start.wait()
                body(n)
                done.leave()
            }
        }
        ready.wait()
        for _ in 0..<count { start.signal() }
        done.wait()
    }
}
