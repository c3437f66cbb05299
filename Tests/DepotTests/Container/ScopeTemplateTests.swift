import Depot
import Testing

extension Container {
    /// Unique, with no declared scope: the container's default scope applies.
    var templateService: Factory<Service> { self { LiveService() } }
    var templateThing: Factory<Thing> { self { Thing(id: 1) }.cached }
    var templateSingleton: Factory<Thing> { self { Thing(id: 2) }.singleton }
}

/// Lifetime scopes are made from their thread's template of the container, and their hits are
/// remembered under it while they are pristine: what they resolve must still follow every
/// registration and setting, of the container and of the scope.
@Suite struct ScopeTemplateTests {
    @Test func aRegistrationOnAScopeAppliesAfterItsFactoryWasResolved() {
        let root = Container()
        let scope = root.newLifetimeScope()
        #expect(scope.templateService().name == "live")
        // Another scope of the same template resolves it the remembered way.
        #expect(root.newLifetimeScope().templateService().name == "live")
        scope.templateService.register { MockService("scope") }
        #expect(scope.templateService().name == "scope")
        #expect(root.newLifetimeScope().templateService().name == "live")
        #expect(root.templateService().name == "live")
    }

    @Test func aCachedFactoryFollowsRegistrationsAndResetsInEveryScope() {
        let root = Container()
        let first = root.newLifetimeScope()
        let kept = first.templateThing()
        // Another scope of the same template finds the factory plain without its lock.
        let second = root.newLifetimeScope()
        let own = second.templateThing()
        #expect(own !== kept)
        #expect(second.templateThing() === own)
        second.templateThing.register { Thing(id: 9) }
        #expect(second.templateThing().id == 9)
        #expect(first.templateThing() === kept)
        root.templateThing.register { Thing(id: 8) }
        #expect(root.newLifetimeScope().templateThing().id == 8)
    }

    @Test func aScopesResetReachesInstancesMadeWithoutTheLock() {
        let root = Container()
        _ = root.newLifetimeScope().perRequestLog()
        // This thread now makes a request scope's instance without reading its registrations.
        let scope = root.newLifetimeScope()
        let log = scope.perRequestLog()
        #expect(scope.perRequestLog() === log)
        Scope.perRequest.reset()
        #expect(scope.perRequestLog() !== log)
    }

    @Test func aRegistrationOnTheContainerReachesTheScopesMadeAfterIt() {
        let root = Container()
        let before = root.newLifetimeScope()
        #expect(before.templateService().name == "live")
        root.templateService.register { MockService("root") }
        #expect(root.newLifetimeScope().templateService().name == "root")
        // A scope is a copy of its container as it was.
        #expect(before.templateService().name == "live")
        root.manager.reset(options: .registration)
        #expect(root.newLifetimeScope().templateService().name == "live")
    }

    @Test func aSettingChangedOnAScopeApplies() {
        let root = Container()
        let scope = root.newLifetimeScope()
        #expect(scope.templateService() !== scope.templateService())
        scope.manager.defaultScope = .cached
        #expect(scope.templateService() === scope.templateService())
        let other = root.newLifetimeScope()
        #expect(other.templateService() !== other.templateService())
    }

    @Test func aSettingChangedOnTheContainerReachesTheScopesMadeAfterIt() {
        let root = Container()
        let before = root.newLifetimeScope()
        #expect(before.templateService() !== before.templateService())
        root.manager.defaultScope = .cached
        let after = root.newLifetimeScope()
        #expect(after.templateService() === after.templateService())
        #expect(after.templateService() !== root.templateService())
        #expect(before.templateService() !== before.templateService())
    }

    @Test func aReleasedContainerLetsGoOfWhatItsRegistrationsCaptured() {
        weak var captured: Thing?
        do {
            let root = Container()
            let thing = Thing(id: 7)
            captured = thing
            root.templateThing.register { thing }
            // This thread now keeps a template of the container, with its registrations.
            #expect(root.newLifetimeScope().templateThing().id == 7)
        }
        #expect(captured == nil)
    }

    @Test func eachScopeKeepsItsOwnCachedInstancesAndSharesSingletons() {
        Scope.withIsolatedSingletons {
            let root = Container()
            let first = root.newLifetimeScope()
            let second = root.newLifetimeScope()
            #expect(first.templateThing() === first.templateThing())
            #expect(first.templateThing() !== second.templateThing())
            #expect(first.templateSingleton() === second.templateSingleton())
            #expect(first.templateSingleton() === root.templateSingleton())
        }
    }

    @Test func aReleasedScopeLetsGoOfItsInstancesAndTheNextStartsEmpty() {
        let root = Container()
        weak var released: Thing?
        do {
            let scope = root.newLifetimeScope()
            let thing = scope.templateThing()
            released = thing
            #expect(scope.templateThing() === thing)
        }
        #expect(released == nil)
        // The next scope on this thread takes the emptied table of the last one.
        let next = root.newLifetimeScope()
        let fresh = next.templateThing()
        #expect(next.templateThing() === fresh)
        #expect(root.newLifetimeScope().templateThing() !== fresh)
    }

    @Test func aScopeReleasedWithoutShutdownStillDisposesItsInstances() async throws {
        let journal = Journal()
        let root = Container()
        do {
            let scope = root.newLifetimeScope()
            let factory = Factory(scope) { Thing(id: 3) }.cached.onDispose {
                journal.append("disposed \($0.id)")
            }
            _ = factory()
        }
        try await journal.wait(for: 1)
        #expect(journal.entries == ["disposed 3"])
        // The next scope's table, made from the released one's, keeps and disposes its own.
        let next = root.newLifetimeScope()
        let factory = Factory(next) { Thing(id: 4) }.cached.onDispose {
            journal.append("disposed \($0.id)")
        }
        _ = factory()
        await next.shutdown()
        #expect(journal.entries == ["disposed 3", "disposed 4"])
    }

    /// Scopes made and used on many threads while the container's registrations change: each
    /// scope sees one state of its container, keeps its cached instance, and shares the
    /// singleton.
    @Test func scopesMadeOnManyThreadsWhileTheContainerChanges() {
        Scope.withIsolatedSingletons {
            let root = Container()
            let singleton = root.templateSingleton()
            let results = runOnThreads(8) { index -> Bool in
                var consistent = true
                for round in 0..<2_000 {
                    if index == 0, round % 100 == 0 {
                        // The writer: a registration, then back to the declaration.
                        root.templateService.register { MockService("root") }
                        root.manager.reset(options: .registration)
                        continue
                    }
                    let scope = root.newLifetimeScope()
                    let name = scope.templateService().name
                    consistent =
                        consistent && (name == "live" || name == "root")
                        && scope.templateService().name == name
                        && scope.templateThing() === scope.templateThing()
                        && scope.templateSingleton() === singleton
                }
                return consistent
            }
            #expect(results.allSatisfy { $0 })
        }
    }
}
