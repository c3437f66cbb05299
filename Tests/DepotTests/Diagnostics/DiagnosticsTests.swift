import Depot
import Testing

final class Report: @unchecked Sendable {
    let thing: Thing
    let other: Thing
    init(thing: Thing, other: Thing = Thing()) {
        self.thing = thing
        self.other = other
    }
}

/// Keeps a provider, not the instances it resolves later.
final class Ticker: @unchecked Sendable {
    let next: Provider<Thing>
    init(next: Provider<Thing>) { self.next = next }
}

final class App: @unchecked Sendable {
    let report: Report
    let cat: Cat
    init(report: Report, cat: Cat) {
        self.report = report
        self.cat = cat
    }
}

extension Container {
    /// Keys of one character, of a character of several bytes, and of both: spelled in messages
    /// from the address and length a key keeps of its literal.
    var spelledKeys: Factory<[Cat]> {
        self {
            [self(key: "x") { Cat() }(), self(key: "é") { Cat() }(), self(key: "café") { Cat() }()]
        }
    }
    var cachedReportOfUnique: Factory<Report> { self { Report(thing: self.uniqueThing()) }.cached }
    var cachedReportOfGraph: Factory<Report> { self { Report(thing: self.graphThing()) }.cached }
    var singletonReportOfShared: Factory<Report> {
        self { Report(thing: self.sharedThing()) }.singleton
    }
    var cachedReportOfCached: Factory<Report> { self { Report(thing: self.cachedThing()) }.cached }
    var uniqueReportOfUnique: Factory<Report> { self { Report(thing: self.uniqueThing()) } }
    var ticker: Factory<Ticker> { self { Ticker(next: self.uniqueThing.provider) }.cached }
    var app: Factory<App> { self { App(report: self.cachedReportOfCached(), cat: self.cat()) } }
    var traceRoot: Factory<Thing> {
        self {
            _ = self.traceBranch()
            _ = self.traceLeaf()
            _ = self.traceBranch()
            return Thing()
        }
    }
    var traceBranch: Factory<Thing> { self { Thing(id: self.traceLeaf().id) } }
    var traceLeaf: Factory<Thing> { self { Thing() }.cached }
    var requestSession: Factory<Thing> { self { Thing() }.cached }
    var auditLog: Factory<Report> { self { Report(thing: self.requestSession()) }.singleton }
    var requestHandler: Factory<Report> { self { Report(thing: self.auditLog().thing) } }
    var auditor: Factory<Report> { self { Report(thing: self.requestSession()) } }
    var auditLogThroughUnique: Factory<Report> {
        self { Report(thing: self.auditor().thing) }.singleton
    }
    var cachedReportOfSession: Factory<Report> {
        self { Report(thing: self.requestSession()) }.cached
    }
    var uniqueReportOfSession: Factory<Report> { self { Report(thing: self.requestSession()) } }
}

/// Collects what a container logs.
func collectLogs(of container: Container) -> Locked<[String]> {
    let lines = Locked<[String]>([])
    container.manager.logger = { line in lines.withLock { $0.append(line) } }
    return lines
}

@Suite struct CaptiveDependencyTests {
    @Test func cachedFactoryResolvingAUniqueOneIsReportedOnceWhenAsked() {
        let container = Container()
        let lines = collectLogs(of: container)
        container.manager.reportsShortLivedCaptives = true
        _ = container.cachedReportOfUnique()
        container.cachedReportOfUnique.reset(.scope)
        _ = container.cachedReportOfUnique()
        guard FactoryContext.current.isDebug else {
            #expect(lines.current.isEmpty)
            return
        }
        #expect(
            lines.current == [
                "Depot: captive dependency: Container.cachedReportOfUnique<Report> [cached] "
                    + "resolves Container.uniqueThing<Thing> [unique] and keeps it as long as "
                    + "itself, longer than the unique scope says. Give "
                    + "Container.uniqueThing<Thing> a scope that lives at least as long as "
                    + "cached, or have Container.cachedReportOfUnique<Report> hold a Provider "
                    + "(.provider) or Lazy (.lazy) of it and resolve it where it is used."
            ])
    }

    @Test func graphAndSharedDependenciesOfKeptInstancesAreCaptiveWhenAsked() {
        Scope.withIsolatedSingletons {
            let container = Container()
            let lines = collectLogs(of: container)
            container.manager.reportsShortLivedCaptives = true
            _ = container.cachedReportOfGraph()
            let held = container.sharedThing()  // a hit of the shared scope is reported too
            _ = container.singletonReportOfShared()
            _ = held
            guard FactoryContext.current.isDebug else { return }
            #expect(lines.current.count == 2)
            #expect(lines.current[0].contains("cachedReportOfGraph<Report> [cached] resolves"))
            #expect(lines.current[0].contains("graphThing<Thing> [graph]"))
            #expect(lines.current[1].contains("singletonReportOfShared<Report> [singleton]"))
            #expect(lines.current[1].contains("sharedThing<Thing> [shared]"))
        }
    }

    @Test func customScopedOwnersAreCheckedToo() {
        let container = Container()
        let lines = collectLogs(of: container)
        container.manager.reportsShortLivedCaptives = true
        _ = container.uniqueReportOfUnique.scope(Scope.Custom(name: "session"))()
        guard FactoryContext.current.isDebug else { return }
        #expect(lines.current.count == 1)
        #expect(lines.current.first?.contains("[session] resolves") == true)
    }

    @Test func dependenciesThatLiveAsLongOrAreProvidedAreNotCaptive() {
        let container = Container()
        let lines = collectLogs(of: container)
        container.manager.reportsShortLivedCaptives = true
        _ = container.cachedReportOfCached()
        _ = container.uniqueReportOfUnique()
        _ = container.ticker().next.value
        _ = container.uniqueThing.provider.value
        #expect(lines.current.isEmpty)
    }
}

@Suite struct LifetimeCaptiveTests {
    @Test func keepingAUniqueOrGraphServiceIsNotReportedByDefault() {
        Scope.withIsolatedSingletons {
            let container = Container()
            let lines = collectLogs(of: container)
            _ = container.cachedReportOfUnique()
            _ = container.cachedReportOfGraph()
            let held = container.sharedThing()
            _ = container.singletonReportOfShared()
            _ = held
            #expect(lines.current.isEmpty)
        }
    }

    @Test func aSingletonMadeInALifetimeScopeThatKeepsTheScopesInstanceIsReportedOnce() {
        Scope.withIsolatedSingletons {
            let root = Container()
            let lines = collectLogs(of: root)
            let request = root.newLifetimeScope()
            _ = request.requestHandler()
            _ = root.newLifetimeScope().requestHandler()
            guard FactoryContext.current.isDebug else {
                #expect(lines.current.isEmpty)
                return
            }
            #expect(
                lines.current == [
                    "Depot: captive dependency: Container.auditLog<Report> [singleton] keeps "
                        + "Container.requestSession<Thing> [cached], an instance of a lifetime "
                        + "scope, after the scope ends and disposes of it: "
                        + "Container.auditLog<Report> outlives the scope. Owner: "
                        + "Container.requestHandler<Report> -> Container.auditLog<Report>; "
                        + "dependency: Container.requestHandler<Report> -> "
                        + "Container.auditLog<Report> -> Container.requestSession<Thing>. "
                        + "Resolve Container.auditLog<Report> from the lifetime scope with a "
                        + "scope the lifetime scope keeps (.cached), or have it hold a Provider "
                        + "(.provider) of Container.requestSession<Thing> and resolve it where "
                        + "it is used."
                ])
        }
    }

    @Test func aKeptScopeInstanceFoundInTheCacheIsReportedThroughAUniqueInBetween() {
        Scope.withIsolatedSingletons {
            let root = Container()
            let lines = collectLogs(of: root)
            let request = root.newLifetimeScope()
            _ = request.requestSession()  // kept: the singleton below finds it in the cache
            _ = request.auditLogThroughUnique()
            guard FactoryContext.current.isDebug else { return }
            #expect(lines.current.count == 1)
            #expect(
                lines.current.first?.hasPrefix(
                    "Depot: captive dependency: Container.auditLogThroughUnique<Report> "
                        + "[singleton] keeps Container.requestSession<Thing> [cached]") == true)
            #expect(
                lines.current.first?.contains(
                    "Container.auditLogThroughUnique<Report> -> Container.auditor<Report> -> "
                        + "Container.requestSession<Thing>") == true, "\(lines.current)")
        }
    }

    @Test func aRootsCachedInstanceKeepingAScopesInstanceIsReported() {
        let root = Container()
        let lines = collectLogs(of: root)
        let request = root.newLifetimeScope()
        let keeper = Factory(root, key: "keeper") { Report(thing: request.requestSession()) }
        _ = keeper.cached()
        guard FactoryContext.current.isDebug else { return }
        #expect(lines.current.count == 1)
        #expect(
            lines.current.first?.hasPrefix(
                "Depot: captive dependency: Container.keeper<Report> [cached] keeps "
                    + "Container.requestSession<Thing> [cached], an instance of a lifetime scope")
                == true)
    }

    @Test func whatTheLifetimeScopeItselfKeepsOrMakesFreshIsNotCaptive() {
        let root = Container()
        let lines = collectLogs(of: root)
        let request = root.newLifetimeScope()
        _ = request.cachedReportOfSession()  // the scope keeps both
        _ = request.uniqueReportOfSession()  // nothing keeps the owner
        _ = request.newLifetimeScope().cachedReportOfSession()
        #expect(lines.current.isEmpty)
    }
}

@Suite struct TracingTests {
    @Test func traceNamesDepthContainerKeyTypeScopeAndOrigin() {
        let container = Container()
        let lines = collectLogs(of: container)
        container.manager.trace = true
        container.cat.register { Cat(name: "registered") }
        _ = container.owner()  // F for owner, R for cat
        _ = container.owner()  // C
        container.uniqueThing.onTest { Thing(id: 1) }
        _ = container.uniqueThing()  // O
        #expect(
            lines.current == [
                "0: Container.owner<Owner> = F [cached]",
                "1:     Container.cat<Cat> = R [cached]",
                "0: Container.owner<Owner> = C [cached]",
                "0: Container.uniqueThing<Thing> = O [unique]",
            ])
    }

    @Test func traceReadsOutermostFirstAsFactoryKitsDoes() {
        let container = Container()
        let lines = collectLogs(of: container)
        container.manager.trace = true
        _ = container.traceRoot()
        #expect(
            lines.current == [
                "0: Container.traceRoot<Thing> = F [unique]",
                "1:     Container.traceBranch<Thing> = F [unique]",
                "2:         Container.traceLeaf<Thing> = F [cached]",
                "1:     Container.traceLeaf<Thing> = C [cached]",
                "1:     Container.traceBranch<Thing> = F [unique]",
                "2:         Container.traceLeaf<Thing> = C [cached]",
            ])
    }

    @Test func aTracedResolutionInsideAnUntracedOneIsLoggedWhenTheOuterOneEnds() {
        let quiet = Container()
        let traced = Container()
        let lines = collectLogs(of: traced)
        traced.manager.trace = true
        let outer = Factory(quiet, key: "outer") { () -> Thing in
            #expect(lines.current.isEmpty)
            _ = traced.traceBranch()
            #expect(lines.current.isEmpty)
            return Thing()
        }
        _ = outer()
        #expect(
            lines.current == [
                "1:     Container.traceBranch<Thing> = F [unique]",
                "2:         Container.traceLeaf<Thing> = F [cached]",
            ])
    }

    @Test func traceIsPerContainer() {
        let traced = Container()
        let quiet = Container()
        let tracedLines = collectLogs(of: traced)
        let quietLines = collectLogs(of: quiet)
        traced.manager.trace = true
        _ = traced.uniqueThing()
        _ = quiet.uniqueThing()
        #expect(tracedLines.current == ["0: Container.uniqueThing<Thing> = F [unique]"])
        #expect(quietLines.current.isEmpty)
    }

    @Test func tracingFromManyThreadsLogsEveryResolution() {
        let container = Container()
        let lines = collectLogs(of: container)
        container.manager.trace = true
        _ = runOnThreads(16) { _ in (0..<50).map { _ in container.cachedThing().id } }
        #expect(lines.current.count == 16 * 50)
        #expect(lines.current.filter { $0.hasSuffix("= F [cached]") }.count == 1)
    }
}

@Suite struct DependencyGraphTests {
    @Test func recordsEdgesWithScopesAndRendersDotAndMermaid() {
        let container = Container()
        container.manager.isRecordingDependencies = true
        _ = container.app()
        let graph = container.manager.dependencyGraph()
        #expect(
            graph.nodes.map { "\($0) \($0.scope ?? "-")" } == [
                "Container.app<App> unique",
                "Container.cachedReportOfCached<Report> cached",
                "Container.cachedThing<Thing> cached",
                "Container.cat<Cat> cached",
            ])
        #expect(
            graph.dot() == """
                digraph Depot {
                  rankdir=LR;
                  node [shape=box];
                  "Container.app<App>" [label="Container.app<App>\\nunique"];
                  "Container.cachedReportOfCached<Report>" [label="Container.cachedReportOfCached<Report>\\ncached"];
                  "Container.cachedThing<Thing>" [label="Container.cachedThing<Thing>\\ncached"];
                  "Container.cat<Cat>" [label="Container.cat<Cat>\\ncached"];
                  "Container.app<App>" -> "Container.cachedReportOfCached<Report>";
                  "Container.app<App>" -> "Container.cat<Cat>";
                  "Container.cachedReportOfCached<Report>" -> "Container.cachedThing<Thing>";
                }

                """)
        #expect(
            graph.mermaid() == """
                graph LR
                  n0["Container.app#lt;App#gt; · unique"]
                  n1["Container.cachedReportOfCached#lt;Report#gt; · cached"]
                  n2["Container.cachedThing#lt;Thing#gt; · cached"]
                  n3["Container.cat#lt;Cat#gt; · cached"]
                  n0 --> n1
                  n0 --> n3
                  n1 --> n2

                """)
    }

    @Test func keysAreSpelledAsDeclared() {
        let container = Container()
        container.manager.isRecordingDependencies = true
        _ = container.spelledKeys()
        #expect(
            Set(container.manager.dependencyGraph().nodes.map(\.key))
                == ["spelledKeys", "x", "é", "café"])
        #expect(
            Set(container.manager.dependencyGraph().nodes.map(\.description)) == [
                "Container.spelledKeys<Array<Cat>>", "Container.x<Cat>", "Container.é<Cat>",
                "Container.café<Cat>",
            ])
    }

    @Test func userNamesCannotBreakTheDotOrMermaidText() {
        // A key and a custom scope's name are the user's strings: quotes, backslashes, line
        // breaks and Mermaid's entity mark stay inside their labels.
        let container = Container()
        container.manager.isRecordingDependencies = true
        let odd = Scope.Custom(name: "per \"user\"\\\nsession #1;")
        _ = Factory(container, key: "quoted\"key\\") { Cat() }.scope(odd)()
        let graph = container.manager.dependencyGraph()
        #expect(
            graph.dot() == """
                digraph Depot {
                  rankdir=LR;
                  node [shape=box];
                  "Container.quoted\\"key\\\\<Cat>" [label="Container.quoted\\"key\\\\<Cat>\\nper \\"user\\"\\\\\\nsession #1;"];
                }

                """)
        #expect(
            graph.mermaid() == """
                graph LR
                  n0["Container.quoted#quot;key\\#lt;Cat#gt; · per #quot;user#quot;\\ session #35;1;"]

                """)
    }

    @Test func cacheHitsAreEdgesToo() {
        let container = Container()
        _ = container.cat()
        container.manager.isRecordingDependencies = true
        _ = container.uniqueOwner()
        #expect(
            container.manager.dependencyGraph().edges.map { "\($0.from) -> \($0.to)" } == [
                "Container.uniqueOwner<Owner> -> Container.cat<Cat>"
            ])
    }

    @Test func nothingIsRecordedWhileRecordingIsOff() {
        let container = Container()
        _ = container.app()
        #expect(container.manager.dependencyGraph().nodes.isEmpty)
        #expect(container.manager.dependencyGraph().edges.isEmpty)
        container.manager.isRecordingDependencies = true
        _ = container.cat()
        container.manager.isRecordingDependencies = false
        _ = container.app()
        #expect(container.manager.dependencyGraph().nodes.map(\.key) == ["cat"])
        container.manager.removeRecordedDependencies()
        #expect(container.manager.dependencyGraph().nodes.isEmpty)
    }
}

@Suite struct CacheInventoryTests {
    @Test func listsWhatIsCachedNowPerScope() {
        Scope.withIsolatedSingletons {
            let container = Container()
            let session = Scope.Custom(name: "session")
            #expect(container.manager.cachedInstances().isEmpty)
            _ = container.app()
            _ = container.singletonThing()
            _ = container.thingPerID(3)
            _ = container.uniqueThing.scope(session)()
            var held: Thing? = container.sharedThing()
            #expect(
                container.manager.cachedInstances() == [
                    "cached": [
                        "cachedReportOfCached<Report>", "cachedThing<Thing>", "cat<Cat>",
                        "thingPerID<Thing>(3)",
                    ],
                    "shared": ["sharedThing<Thing>"],
                    "singleton": ["singletonThing<Thing>"],
                    "session": ["uniqueThing<Thing>"],
                ])
            held = nil
            container.manager.reset(scope: .cached)
            #expect(
                container.manager.cachedInstances() == [
                    "singleton": ["singletonThing<Thing>"], "session": ["uniqueThing<Thing>"],
                ])
            _ = held
            // Another container type's singletons are not this container's.
            #expect(ServiceContainer().manager.cachedInstances().isEmpty)
        }
    }
}

final class Relay: @unchecked Sendable {
    let next: Relay?
    init(next: Relay?) { self.next = next }
}

extension Container {
    /// The same factory (same key, same type) of another container, resolved from inside.
    func relay(to next: Container?) -> Factory<Relay> {
        self { Relay(next: next?.relay(to: nil)()) }
    }
}

@Suite struct NotACycleTests {
    @Test func theSameFactoryOfAnotherContainerIsNotACycle() {
        let first = Container()
        let second = Container()
        let relay = first.relay(to: second)()
        #expect(relay.next != nil)
        #expect(relay.next?.next == nil)
    }
}
