import Depot
import Testing

extension Container {
    /// Unique, with no declared scope: the container's default scope applies.
    var inheritedService: Factory<Service> { self { LiveService() } }
    var inheritedThing: Factory<Thing> { self { Thing(id: 1) }.cached }
    var inheritedSingleton: Factory<Thing> { self { Thing(id: 2) }.singleton }
}

/// A lifetime scope takes its container's registrations and settings as they are when it is
/// made: what it resolves must follow every later registration and setting of its own, and the
/// container's must reach the scopes made after them, never the ones made before.
@Suite struct LifetimeScopeInheritanceTests {
    @Test func aRegistrationOnAScopeAppliesAfterItsFactoryWasResolved() {
        let root = Container()
        let scope = root.newLifetimeScope()
        #expect(scope.inheritedService().name == "live")
        // Another scope of the same container, made after this one.
        #expect(root.newLifetimeScope().inheritedService().name == "live")
        scope.inheritedService.register { MockService("scope") }
        #expect(scope.inheritedService().name == "scope")
        #expect(root.newLifetimeScope().inheritedService().name == "live")
        #expect(root.inheritedService().name == "live")
    }

    @Test func aCachedFactoryFollowsRegistrationsAndResetsInEveryScope() {
        let root = Container()
        let first = root.newLifetimeScope()
        let kept = first.inheritedThing()
        // Another scope of the same container keeps its own instance.
        let second = root.newLifetimeScope()
        let own = second.inheritedThing()
        #expect(own !== kept)
        #expect(second.inheritedThing() === own)
        second.inheritedThing.register { Thing(id: 9) }
        #expect(second.inheritedThing().id == 9)
        #expect(first.inheritedThing() === kept)
        root.inheritedThing.register { Thing(id: 8) }
        #expect(root.newLifetimeScope().inheritedThing().id == 8)
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
        #expect(before.inheritedService().name == "live")
        root.inheritedService.register { MockService("root") }
        #expect(root.newLifetimeScope().inheritedService().name == "root")
        // A scope is a copy of its container as it was.
        #expect(before.inheritedService().name == "live")
        root.manager.reset(options: .registration)
        #expect(root.newLifetimeScope().inheritedService().name == "live")
    }

    @Test func aSettingChangedOnAScopeApplies() {
        let root = Container()
        let scope = root.newLifetimeScope()
        #expect(scope.inheritedService() !== scope.inheritedService())
        scope.manager.defaultScope = .cached
        #expect(scope.inheritedService() === scope.inheritedService())
        let other = root.newLifetimeScope()
        #expect(other.inheritedService() !== other.inheritedService())
    }

    @Test func aSettingChangedOnTheContainerReachesTheScopesMadeAfterIt() {
        let root = Container()
        let before = root.newLifetimeScope()
        #expect(before.inheritedService() !== before.inheritedService())
        root.manager.defaultScope = .cached
        let after = root.newLifetimeScope()
        #expect(after.inheritedService() === after.inheritedService())
        #expect(after.inheritedService() !== root.inheritedService())
        #expect(before.inheritedService() !== before.inheritedService())
    }

    @Test func aReleasedContainerLetsGoOfWhatItsRegistrationsCaptured() {
        weak var captured: Thing?
        do {
            let root = Container()
            let thing = Thing(id: 7)
            captured = thing
            root.inheritedThing.register { thing }
            // The scope holds the container's registrations, and what they captured.
            #expect(root.newLifetimeScope().inheritedThing().id == 7)
        }
        #expect(captured == nil)
    }

    @Test func eachScopeKeepsItsOwnCachedInstancesAndSharesSingletons() {
        Scope.withIsolatedSingletons {
            let root = Container()
            let first = root.newLifetimeScope()
            let second = root.newLifetimeScope()
            #expect(first.inheritedThing() === first.inheritedThing())
            #expect(first.inheritedThing() !== second.inheritedThing())
            #expect(first.inheritedSingleton() === second.inheritedSingleton())
            #expect(first.inheritedSingleton() === root.inheritedSingleton())
        }
    }

    @Test func aReleasedScopeLetsGoOfItsInstancesAndTheNextStartsEmpty() {
        let root = Container()
        weak var released: Thing?
        do {
            let scope = root.newLifetimeScope()
            let thing = scope.inheritedThing()
            released = thing
            #expect(scope.inheritedThing() === thing)
        }
        #expect(released == nil)
        // The next scope on this thread takes the emptied table of the last one.
        let next = root.newLifetimeScope()
        let fresh = next.inheritedThing()
        #expect(next.inheritedThing() === fresh)
        #expect(root.newLifetimeScope().inheritedThing() !== fresh)
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
            let singleton = root.inheritedSingleton()
            let results = runOnThreads(8) { index -> Bool in
                var consistent = true
                for round in 0..<2_000 {
                    if index == 0, round % 100 == 0 {
                        // The writer: a registration, then back to the declaration.
                        root.inheritedService.register { MockService("root") }
                        root.manager.reset(options: .registration)
                        continue
                    }
                    let scope = root.newLifetimeScope()
                    let name = scope.inheritedService().name
                    consistent =
                        consistent && (name == "live" || name == "root")
                        && scope.inheritedService().name == name
                        && scope.inheritedThing() === scope.inheritedThing()
                        && scope.inheritedSingleton() === singleton
                }
                return consistent
            }
            #expect(results.allSatisfy { $0 })
        }
    }
}
