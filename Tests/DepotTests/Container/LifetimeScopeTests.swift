import Depot
import Testing

/// One unit of work per request: made once per lifetime scope, disposed at its end.
final class UnitOfWork: Sendable {
    let log: Journal
    init(log: Journal) { self.log = log }
}

/// Resolves its unit of work from `Container.shared`, as a request handler would.
final class Handler {
    @Injected(\.unitOfWork) var unitOfWork
}

extension Container {
    var unitOfWork: Factory<UnitOfWork> {
        self { UnitOfWork(log: Journal()) }
            .cached
            .onDispose { $0.log.append("disposed") }
    }
    var appWideLog: Factory<Journal> { self { Journal() }.singleton }
}

extension ServiceContainer: TaskLocalContainer {
    static var sharedTaskLocal: TaskLocal<ServiceContainer> { $shared }
}

/// `withLifetimeScope`: a lifetime scope bound as the task's `shared` container, shut down at
/// its end.
@Suite(.timeLimit(.minutes(2))) struct WithLifetimeScopeTests {
    @Test func theScopeIsTheSharedContainerInsideAndItsInstancesAreItsOwn() async throws {
        let root = Container()
        let outside = root.unitOfWork()
        let (first, second) = await root.withLifetimeScope { scope in
            #expect(Container.shared === scope)
            async let fromChildTask = Handler().unitOfWork
            let direct = Handler().unitOfWork
            return (direct, await fromChildTask)
        }
        #expect(first === second)
        #expect(first !== outside)
        let other = await root.withLifetimeScope { _ in
            await Task.yield()
            return Handler().unitOfWork
        }
        #expect(other !== first)
        #expect(Container.shared !== root)
    }

    @Test func theScopeIsShutDownAtItsEndEvenWhenTheBodyThrows() async throws {
        let root = Container()
        let unit = await root.withLifetimeScope { _ in
            await Task.yield()
            return Handler().unitOfWork
        }
        #expect(unit.log.entries == ["disposed"])
        var thrown: UnitOfWork?
        await #expect(throws: Failure(message: "bad request")) {
            try await root.withLifetimeScope { _ in
                await Task.yield()
                thrown = Handler().unitOfWork
                throw Failure(message: "bad request")
            }
        }
        #expect(thrown?.log.entries == ["disposed"])
        #expect(root.unitOfWork().log.entries.isEmpty)
    }

    @Test func concurrentScopesEachGetTheirOwnAndShareSingletons() async throws {
        await Scope.withIsolatedSingletons {
            let root = Container()
            // The instances, kept alive, so their identities are not reused.
            let results = await withTaskGroup(of: (UnitOfWork, Journal).self) { group in
                for _ in 0..<200 {
                    group.addTask {
                        await root.withLifetimeScope { scope in
                            await Task.yield()
                            let unit = Handler().unitOfWork
                            #expect(scope.unitOfWork() === unit)
                            return (unit, scope.appWideLog())
                        }
                    }
                }
                return await group.reduce(into: [(UnitOfWork, Journal)]()) { $0.append($1) }
            }
            #expect(Set(results.map { ObjectIdentifier($0.0) }).count == 200)
            #expect(Set(results.map { ObjectIdentifier($0.1) }).count == 1)
            #expect(results.allSatisfy { $0.0.log.entries == ["disposed"] })
        }
    }

    @Test func aCustomTaskLocalContainerGetsTheSame() async throws {
        let root = ServiceContainer()
        let inside = await root.withLifetimeScope { scope in
            await Task.yield()
            #expect(ServiceContainer.shared === scope)
            return ServiceContainer.shared.service()
        }
        #expect(root.service() !== inside)
    }

    @Test func theSyncTwinBindsTheScopeAndResetsItAfter() async throws {
        let root = Container()
        let unit = root.withLifetimeScope { scope in
            #expect(Container.shared === scope)
            return Handler().unitOfWork
        }
        try await unit.log.wait(for: 1)
        #expect(unit.log.entries == ["disposed"])
    }
}

extension WithLifetimeScopeTests {
    @Test func aLifetimeScopeMadeOutsideItsContainersIsolationSharesItsSingletons() async throws {
        let (root, singleton) = Scope.withIsolatedSingletons {
            let root = Container()
            return (root, root.appWideLog())
        }
        // Made outside the isolation, as a server's request task may be.
        let scope = root.newLifetimeScope()
        #expect(scope.appWideLog() === singleton)
        #expect(root.makeChild().appWideLog() === singleton)
        #expect(Container().appWideLog() !== singleton)
    }
}

extension Scope {
    static let perRequest = Scope.Cached()
}

extension Container {
    var perRequestLog: Factory<Journal> { self { Journal() }.scope(.perRequest) }
}

/// What request scopes find without the locks every thread shares.
@Suite struct RequestScopeHitTests {
    @Test func aSingletonFromFreshScopesIsTheSameUntilItsScopeResets() {
        Scope.withIsolatedSingletons {
            let root = Container()
            let first = root.newLifetimeScope().appWideLog()
            // Fresh scopes on this thread now find it without the realm's lock.
            for _ in 0..<3 {
                #expect(root.newLifetimeScope().appWideLog() === first)
            }
            Scope.singleton.reset()
            let second = root.newLifetimeScope().appWideLog()
            #expect(second !== first)
            #expect(root.newLifetimeScope().appWideLog() === second)
            #expect(root.appWideLog() === second)
        }
    }

    @Test func aRegistrationInOneScopeReachesTheSingletonOtherScopesRemembered() {
        Scope.withIsolatedSingletons {
            let root = Container()
            let shared = root.newLifetimeScope().appWideLog()
            #expect(root.newLifetimeScope().appWideLog() === shared)
            // A registration drops the singleton, in any container of the type; the
            // declaration's `.singleton` wins over the outside `.scope(.cached)`.
            let scope = root.newLifetimeScope()
            scope.appWideLog.register { Journal() }.scope(.cached)
            let registered = scope.appWideLog()
            #expect(registered !== shared)
            #expect(root.newLifetimeScope().appWideLog() === registered)
            #expect(root.appWideLog() === registered)
        }
    }

    @Test func aScopesResetReachesRequestScopesMadeOnManyThreads() throws {
        let root = Container()
        let made = runOnThreads(8) { _ in
            let scope = root.newLifetimeScope()
            return (scope, scope.perRequestLog())
        }
        #expect(made.count == 8)
        #expect(made.allSatisfy { $0.0.perRequestLog() === $0.1 })
        Scope.perRequest.reset()
        #expect(made.allSatisfy { $0.0.perRequestLog() !== $0.1 })
    }
}
