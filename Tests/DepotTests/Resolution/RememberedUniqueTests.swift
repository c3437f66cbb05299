import Depot
import Testing

extension Container {
    /// Declared `.unique` explicitly, so the container's default scope does not reach it.
    var declaredUniqueThing: Factory<Thing> { self { Thing() }.unique }
    var cachedReportOfDeclaredUnique: Factory<Report> {
        self { Report(thing: self.declaredUniqueThing()) }.cached
    }
}

/// A plain `.unique` factory that a thread has resolved is resolved again through the thread's
/// hit cache, without the manager's lock: these tests resolve each factory a few times first,
/// so the cache holds it, then check that it still behaves as `.unique`, and that what it
/// depends on reaches it.
@Suite struct RememberedUniqueTests {
    /// Resolves `factory` three times: the last two come through the hit cache.
    private func remembered<T: AnyObject>(_ factory: Factory<T>) -> T {
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
        _ = remembered(container.uniqueThing)
        _ = remembered(container.declaredUniqueThing)
    }

    @Test func aRegistrationAndItsRemovalReachARememberedUniqueFactory() {
        let container = Container()
        _ = remembered(container.uniqueThing)
        container.uniqueThing.register { Thing(id: 42) }
        #expect(container.uniqueThing().id == 42)
        #expect(container.uniqueThing().id == 42)
        container.uniqueThing.reset()
        #expect(container.uniqueThing().id == 0)
        #expect(container.uniqueThing().id == 0)
    }

    @Test func aDefaultScopeSetLaterReachesFactoriesThatDeclareNone() {
        let container = Container()
        _ = remembered(container.uniqueThing)
        _ = remembered(container.declaredUniqueThing)
        container.manager.defaultScope = .cached
        let kept = container.uniqueThing()
        #expect(container.uniqueThing() === kept)
        // A declared scope wins over the default.
        #expect(container.declaredUniqueThing() !== container.declaredUniqueThing())
    }

    @Test func aModifierAppliedLaterReachesARememberedUniqueFactory() {
        let container = Container()
        _ = remembered(container.uniqueThing)
        container.uniqueThing.register { Thing(id: 7) }.cached
        let kept = container.uniqueThing()
        #expect(kept.id == 7)
        #expect(container.uniqueThing() === kept)
    }

    @Test func tracingAndDecoratorsTurnedOnLaterSeeRememberedUniqueResolves() {
        let container = Container()
        _ = remembered(container.uniqueThing)
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

    @Test func containersDoNotShareRememberedUniqueFactories() {
        let one = Container()
        let other = Container()
        _ = remembered(one.uniqueThing)
        other.uniqueThing.register { Thing(id: 5) }
        #expect(other.uniqueThing().id == 5)
        #expect(one.uniqueThing().id == 0)
    }

    /// The outermost resolve that comes through the hit cache still starts and ends a graph:
    /// graph-scoped instances are shared within one resolution, never across two.
    @Test func aRememberedUniqueRootStillDelimitsItsGraph() {
        let container = Container()
        let roots = (0..<3).map { _ in container.graphRoot() }
        for root in roots {
            #expect(root.left !== root.right)
            #expect(root.left.shared === root.right.shared)
        }
        #expect(roots[1].left.shared !== roots[2].left.shared)
    }

    /// A kept owner that resolves a remembered unique dependency is still reported as captive.
    @Test func aCaptiveRememberedUniqueDependencyIsStillReportedInDebugBuilds() {
        let container = Container()
        let lines = collectLogs(of: container)
        _ = remembered(container.declaredUniqueThing)
        _ = container.cachedReportOfDeclaredUnique()
        guard FactoryContext.current.isDebug else {
            #expect(lines.current.isEmpty)
            return
        }
        #expect(lines.current.count == 1)
        #expect(
            lines.current.first?.hasPrefix(
                "Depot: captive dependency: Container.cachedReportOfDeclaredUnique<Report> "
                    + "[cached] resolves Container.declaredUniqueThing<Thing> [unique]") == true)
    }

    /// Threads resolving a remembered unique factory while another thread registers and removes
    /// a replacement: nothing crashes or races (CI runs this under ThreadSanitizer), every
    /// resolve runs one of the two closures, and once the writes stop every thread runs the
    /// declared one.
    @Test func rememberedUniqueResolvesFollowRegistrationsUnderContention() {
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
