import Testing

@testable import Depot

extension Container {
    fileprivate var asyncRequestSession: AsyncFactory<Thing> { self { Thing() }.cached }
    fileprivate var asyncAuditLog: AsyncFactory<Report> {
        self { Report(thing: try await self.asyncRequestSession()) }.singleton
    }
}

/// A lifetime scope resolves on the plain path in debug builds as in release: its captive
/// checks (debug builds only) ride on that path's plans instead of sending it through `prepare`.
@Suite struct LifetimeScopePlainPathTests {
    private let anyKey = FactoryKey(name: "anything", type: Int.self)

    @Test func aLifetimeScopeIsPlainInDebugAndReleaseAndChecksCaptivesOnlyInDebug() {
        let root = Container()
        _ = root.requestSession()  // runs autoRegister()
        let scope = root.newLifetimeScope().manager.plainness(for: anyKey)
        #expect(scope.isPlain)
        #expect(scope.checksCaptive == FactoryContext.current.isDebug)
        // A root container checks only when asked to report short-lived captives.
        #expect(root.manager.plainness(for: anyKey).checksCaptive == false)
        root.manager.reportsShortLivedCaptives = true
        let asked = root.manager.plainness(for: anyKey)
        #expect(asked.isPlain)
        #expect(asked.checksCaptive == FactoryContext.current.isDebug)
    }

    @Test func aScopesKeptInstanceFoundByAnAsyncSingletonIsReportedInDebugBuilds() async throws {
        try await Scope.withIsolatedSingletons {
            let root = Container()
            let lines = collectLogs(of: root)
            let request = root.newLifetimeScope()
            let session = try await request.asyncRequestSession()
            // The singleton's closure finds the session kept: a plain hit, checked.
            let audit = try await request.asyncAuditLog()
            #expect(audit.thing === session)
            let captive = lines.current.filter { $0.contains("captive dependency") }
            guard FactoryContext.current.isDebug else {
                #expect(captive.isEmpty)
                return
            }
            #expect(
                captive == [
                    "Depot: captive dependency: Container.asyncAuditLog<Report> [singleton] "
                        + "keeps Container.asyncRequestSession<Thing> [cached], an instance of a "
                        + "lifetime scope, after the scope ends and disposes of it: "
                        + "Container.asyncAuditLog<Report> outlives the scope. Owner: "
                        + "Container.asyncAuditLog<Report>; dependency: "
                        + "Container.asyncAuditLog<Report> -> "
                        + "Container.asyncRequestSession<Thing>. Resolve "
                        + "Container.asyncAuditLog<Report> from the lifetime scope with a scope "
                        + "the lifetime scope keeps (.cached), or have it hold a Provider "
                        + "(.provider) of Container.asyncRequestSession<Thing> and resolve it "
                        + "where it is used."
                ])
        }
    }
}
