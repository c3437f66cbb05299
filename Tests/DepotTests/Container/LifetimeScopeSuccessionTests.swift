import Depot
import Foundation
import Testing

/// Lifetime scopes of one container made one after another on a thread (a server's requests):
/// nothing one scope set, registered or kept reaches the next, which is exactly a new one.
@Suite struct LifetimeScopeSuccessionTests {
    @Test func settingsChangedOnADroppedScopeDoNotReachTheNext() {
        let root = Container()
        let rootLog = Locked<[String]>([])
        let scopeLog = Locked<[String]>([])
        root.manager.logger = { message in rootLog.withLock { $0.append(message) } }
        root.manager.clock = ContainerManager.Clock { 100 }
        let promises = root.manager.promiseTriggersError
        var first: Container? = root.newLifetimeScope()
        _ = first!.cachedThing()
        // Settings of a scope of its own: its registrations still are its container's.
        first!.manager.logger = { message in scopeLog.withLock { $0.append(message) } }
        first!.manager.clock = ContainerManager.Clock { 5 }
        first!.manager.promiseTriggersError = !promises
        first = nil

        let second = root.newLifetimeScope()
        second.manager.logger("to the container's logger")
        #expect(rootLog.withLock { $0 } == ["to the container's logger"])
        #expect(scopeLog.withLock { $0 }.isEmpty)
        #expect(second.manager.clock.now() == 100)
        #expect(second.manager.promiseTriggersError == promises)
    }

    @Test func aChangedScopeLeavesNothingToTheNext() {
        let root = Container()
        // Each change alone, so that the scope is otherwise one that would be reused.
        let changes: [(Container) -> Void] = [
            { $0.service.register { MockService("dropped") } },
            { $0.manager.defaultScope = .cached },
            { $0.manager.trace = true },
            { $0.manager.decorator = { _ in } },
        ]
        for change in changes {
            var first: Container? = root.newLifetimeScope()
            _ = first!.cachedThing()
            change(first!)
            first = nil

            let second = root.newLifetimeScope()
            #expect(second.service().name == "live")
            #expect(second.manager.defaultScope == nil)
            #expect(!second.manager.trace)
            #expect(second.manager.decorator == nil)
            #expect(second.service() !== second.service())
        }
    }

    @Test func aScopeTakesItsOwnContainersRegistrationsAsTheyAreNow() {
        let one = Container()
        let other = Container()
        one.service.register { MockService("one") }
        other.service.register { MockService("other") }
        var dropped: Container? = one.newLifetimeScope()
        _ = dropped!.cachedThing()
        dropped = nil
        // Another container's scope, then one of the first container after it changed.
        #expect(other.newLifetimeScope().service().name == "other")
        dropped = one.newLifetimeScope()
        _ = dropped!.cachedThing()
        dropped = nil
        one.service.register { MockService("changed") }
        #expect(one.newLifetimeScope().service().name == "changed")
    }

    @Test func instancesWithTeardownParametersOrCustomStorageStayWithTheirScope() {
        let root = Container()
        // Each kind alone, so that the scope holding it is otherwise one that would be reused.
        let kinds: [(Container) -> Thing] = [
            { $0.cachedThing() }, { $0.thingPerID(1) }, { $0.cachedThingWithID(2) },
            { $0.reuseSessionThing() }, { $0.reuseDisposedThing() },
        ]
        for resolve in kinds {
            var first: Container? = root.newLifetimeScope()
            let dropped = resolve(first!)
            #expect(resolve(first!) === dropped)
            first = nil
            let second = root.newLifetimeScope()
            let made = resolve(second)
            #expect(made !== dropped)
            #expect(resolve(second) === made)
            #expect(second.manager.cachedInstances().values.joined().count <= 1)
        }
    }

    @Test func scopesTakeTheirContainersSingletonsWhereverSingletonsAreIsolated() {
        let root = Container()
        let outer = root.singletonThing()
        var first: Container? = root.newLifetimeScope()
        #expect(first!.singletonThing() === outer)
        first = nil
        Scope.withIsolatedSingletons {
            // A lifetime scope takes its container's singletons wherever it is made; a
            // container made here has the isolated ones.
            var inner: Container? = root.newLifetimeScope()
            #expect(inner!.singletonThing() === outer)
            inner = nil
            let isolated = Container().newLifetimeScope()
            #expect(isolated.singletonThing() !== outer)
        }
        #expect(root.newLifetimeScope().singletonThing() === outer)
    }

    /// A dropped scope's state stays noted in the holders of `.cached` for the next scope: once
    /// it is not reused (another container's scope takes the thread, or its container goes),
    /// nothing may keep it, nor what its registrations captured.
    @Test func aSpareStateGoesWithItsContainerOrWhenAnotherContainersScopeComes() {
        for replacedFirst in [false, true] {
            weak var captured: Thing?
            do {
                let token = Thing()
                captured = token
                var root: Container? = Container()
                root!.cachedThing.register { [token] in Thing(id: token.id) }
                var scope: Container? = root!.newLifetimeScope()
                _ = scope!.cachedThing()
                scope = nil
                if replacedFirst {
                    _ = Container().newLifetimeScope().cachedThing()
                }
                root = nil
            }
            #expect(captured == nil, "replaced first: \(replacedFirst)")
        }
    }

    /// Threads make scopes one after another, each resolving its own `.cached` instance, while
    /// another resets that scope everywhere: no scope ever resolves an instance made in an
    /// earlier one, though resets may hold a going scope's state. In a process of its own: the
    /// resets would reach the cached instances of the tests running beside this one.
    @Test func scopesMadeWhileResetsRunNeverShareInstances() throws {
        let run = try runCrashHelper("scopes-under-resets")
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("shared 0\n"), "\(run.output)")
        #expect(!run.errors.contains("ThreadSanitizer"), "\(run.errors)")
    }
}

extension Scope {
    static let reuseSession = Scope.Custom(
        name: "reuse session", reference: .strong, placement: .container)
}

extension Container {
    fileprivate var reuseSessionThing: Factory<Thing> { self { Thing() }.scope(.reuseSession) }
    fileprivate var reuseDisposedThing: Factory<Thing> {
        self { Thing() }.cached.onDispose { _ in }
    }
}
