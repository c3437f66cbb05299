import Depot
import Testing

/// Two things resolved in one resolution.
final class GraphPair: @unchecked Sendable {
    let first: Thing
    let second: Thing
    init(first: Thing, second: Thing) {
        self.first = first
        self.second = second
    }
}

extension Container {
    /// Resolves `graphThing` once directly and once through a `Provider` made in the same
    /// resolution.
    var providedGraphPair: Factory<GraphPair> {
        self {
            let provider = self.graphThing.provider
            return GraphPair(first: self.graphThing(), second: provider())
        }
    }
    var singletonReportOfGraph: Factory<Report> {
        self { Report(thing: self.graphThing()) }.singleton
    }
    /// Resolves `graphThing`, then a singleton that resolves it again: a hit in the
    /// resolution's graph, made outside the singleton. (A singleton's creation takes the
    /// singletons' lock, not the container's.)
    var graphThingThenSingletonReport: Factory<GraphPair> {
        self {
            let first = self.graphThing()
            return GraphPair(first: first, second: self.singletonReportOfGraph().thing)
        }
    }
    /// Declared `.unique` explicitly, so the container's default scope does not reach it.
    var declaredUniqueThing: Factory<Thing> { self { Thing() }.unique }
    var cachedReportOfDeclaredUnique: Factory<Report> {
        self { Report(thing: self.declaredUniqueThing()) }.cached
    }
}

/// A `.unique` or `.graph` factory of a container with nothing registered or observed resolves
/// without the manager's lock: these tests resolve each factory a few times first, then check
/// that it still behaves as its scope says, and that what it depends on reaches it.
@Suite struct RepeatedPlainResolveTests {
    /// Resolves `factory` three times.
    private func resolvedThrice<T: AnyObject>(_ factory: Factory<T>) -> T {
        let first = factory()
        let second = factory()
        let third = factory()
        #expect(first !== second)
        #expect(second !== third)
        #expect(first !== third)
        return third
    }

    @Test func eachResolveStillMakesANewInstance() {
        let container = Container()
        _ = resolvedThrice(container.uniqueThing)
        _ = resolvedThrice(container.declaredUniqueThing)
    }

    @Test func aRegistrationAndItsRemovalReachARepeatedUniqueFactory() {
        let container = Container()
        _ = resolvedThrice(container.uniqueThing)
        container.uniqueThing.register { Thing(id: 42) }
        #expect(container.uniqueThing().id == 42)
        #expect(container.uniqueThing().id == 42)
        container.uniqueThing.reset()
        #expect(container.uniqueThing().id == 0)
        #expect(container.uniqueThing().id == 0)
    }

    @Test func aDefaultScopeSetLaterReachesFactoriesThatDeclareNone() {
        let container = Container()
        _ = resolvedThrice(container.uniqueThing)
        _ = resolvedThrice(container.declaredUniqueThing)
        container.manager.defaultScope = .cached
        let kept = container.uniqueThing()
        #expect(container.uniqueThing() === kept)
        // A declared scope wins over the default.
        #expect(container.declaredUniqueThing() !== container.declaredUniqueThing())
    }

    @Test func aModifierAppliedLaterReachesARepeatedUniqueFactory() {
        let container = Container()
        _ = resolvedThrice(container.uniqueThing)
        _ = container.uniqueThing.register { Thing(id: 7) }.cached
        let kept = container.uniqueThing()
        #expect(kept.id == 7)
        #expect(container.uniqueThing() === kept)
    }

    @Test func tracingAndDecoratorsTurnedOnLaterSeeRepeatedUniqueResolves() {
        let container = Container()
        _ = resolvedThrice(container.uniqueThing)
        let lines = collectLogs(of: container)
        container.manager.trace = true
        _ = container.uniqueThing()
        #expect(lines.current.count == 1)
        #expect(lines.current.first?.contains("Container.uniqueThing<Thing> = F [unique]") == true)
        container.manager.trace = false

        let decorated = Counter()
        container.manager.decorator = { _ in decorated.increment() }
        _ = container.uniqueThing()
        #expect(decorated.value == 1)
    }

    @Test func containersDoNotShareRepeatedUniqueFactories() {
        let one = Container()
        let other = Container()
        _ = resolvedThrice(one.uniqueThing)
        other.uniqueThing.register { Thing(id: 5) }
        #expect(other.uniqueThing().id == 5)
        #expect(one.uniqueThing().id == 0)
    }

    /// The outermost resolve that takes no lock still starts and ends a graph:
    /// graph-scoped instances are shared within one resolution, never across two.
    @Test func aRepeatedUniqueRootStillDelimitsItsGraph() {
        let container = Container()
        let roots = (0..<3).map { _ in container.graphRoot() }
        for root in roots {
            #expect(root.left !== root.right)
            #expect(root.left.shared === root.right.shared)
        }
        #expect(roots[1].left.shared !== roots[2].left.shared)
    }

    /// A kept owner that resolves a repeatedly resolved unique dependency is still reported as captive.
    @Test func aCaptiveRepeatedUniqueDependencyIsStillReportedWhenAsked() {
        let container = Container()
        let lines = collectLogs(of: container)
        container.manager.reportsShortLivedCaptives = true
        _ = resolvedThrice(container.declaredUniqueThing)
        _ = container.cachedReportOfDeclaredUnique()
        expectOneCaptiveReport(
            in: lines,
            startingWith:
                "Depot: captive dependency: Container.cachedReportOfDeclaredUnique<Report> "
                + "[cached] resolves Container.declaredUniqueThing<Thing> [unique]")
    }

    /// In debug builds, `lines` is one captive-dependency report that starts with `start`; in
    /// release builds, nothing.
    private func expectOneCaptiveReport(in lines: Locked<[String]>, startingWith start: String) {
        guard FactoryContext.current.isDebug else {
            #expect(lines.current.isEmpty)
            return
        }
        #expect(lines.current.count == 1)
        #expect(lines.current.first?.hasPrefix(start) == true)
    }

    @Test func aRepeatedGraphFactoryKeepsOneInstancePerResolution() {
        let container = Container()
        let roots = (0..<4).map { _ in container.graphRoot() }
        for root in roots {
            #expect(root.left.shared === root.right.shared)
        }
        #expect(Set(roots.map { ObjectIdentifier($0.left.shared) }).count == roots.count)
        // Outside any resolution, each resolve is a graph of its own.
        let alone = (0..<3).map { _ in container.graphThing() }
        #expect(alone[0] !== alone[1])
        #expect(alone[1] !== alone[2])
    }

    @Test func aRegistrationReachesARepeatedGraphFactory() {
        let container = Container()
        _ = (0..<3).map { _ in container.graphRoot() }
        container.graphThing.register { Thing(id: 9) }
        let root = container.graphRoot()
        #expect(root.left.shared.id == 9)
        #expect(root.left.shared === root.right.shared)
        container.graphThing.reset()
        #expect(container.graphRoot().left.shared.id == 0)
    }

    /// A `Provider` made during a resolution joins its graph later: a repeatedly resolved graph factory
    /// resolved through it finds the instance the resolution kept, while the resolution runs.
    @Test func aProviderResolvesARepeatedGraphFactoryInItsGraph() {
        let container = Container()
        _ = (0..<3).map { _ in container.graphThing() }
        let provided = container.providedGraphPair()
        #expect(provided.first === provided.second)
        #expect(container.providedGraphPair().first !== provided.first)
    }

    /// A kept owner that resolves a repeatedly resolved graph dependency, made earlier in the same
    /// resolution, is still reported as captive.
    @Test func aCaptiveRepeatedGraphHitIsStillReportedWhenAsked() {
        let container = Container()
        let lines = collectLogs(of: container)
        container.manager.reportsShortLivedCaptives = true
        _ = (0..<3).map { _ in container.graphThing() }
        let pair = Scope.withIsolatedSingletons { container.graphThingThenSingletonReport() }
        #expect(pair.first === pair.second)
        expectOneCaptiveReport(
            in: lines,
            startingWith: "Depot: captive dependency: Container.singletonReportOfGraph<Report> "
                + "[singleton] resolves Container.graphThing<Thing> [graph]")
    }

    /// Threads resolving a unique factory while another thread registers and removes
    /// a replacement: nothing crashes or races (CI runs this under ThreadSanitizer), every
    /// resolve runs one of the two closures, and once the writes stop every thread runs the
    /// declared one.
    @Test func uniqueResolvesFollowRegistrationsUnderContention() {
        let container = Container()
        let stop = Locked(false)
        let results = runOnThreads(9) { index -> Bool in
            if index == 0 {
                for round in 0..<3_000 {
                    if round % 2 == 0 {
                        container.uniqueThing.register { Thing(id: 1) }
                    } else {
                        container.uniqueThing.reset()
                    }
                }
                stop.withLock { $0 = true }
                return true
            }
            var seenOnlyKnownClosures = true
            while !stop.current {
                let id = container.uniqueThing().id
                seenOnlyKnownClosures = seenOnlyKnownClosures && (id == 0 || id == 1)
            }
            return seenOnlyKnownClosures
        }
        #expect(results.allSatisfy { $0 })
        let ids = runOnThreads(8) { _ in (0..<3).map { _ in container.uniqueThing().id } }
        #expect(ids.allSatisfy { $0 == [0, 0, 0] })
    }
}
