import Depot
import Foundation
import Testing

/// Many threads released together on fresh factories: every scoped factory runs once per
/// container, key and parameter, in debug and release builds alike.
@Suite struct ConcurrencyStressTests {
    static let threads = 32
    static let rounds = 20

    @Test(arguments: [
        Scope.cached, .shared, .singleton, .weakSingleton, Scope.Cached(),
        Scope.Custom(name: "custom"), Scope.Custom(name: "weak custom", reference: .weak),
        Scope.Custom(name: "process custom", placement: .process),
    ])
    func scopedFactoryRunsExactlyOnceUnderContention(scope: Scope) {
        for _ in 0..<Self.rounds {
            Scope.withIsolatedSingletons {
                let container = Container()
                let calls = Counter()
                let factory = container.uniqueThing.register {
                    calls.increment()
                    usleep(200)
                    return Thing()
                }.scope(scope)
                let results = runOnThreads(Self.threads) { _ in factory() }
                #expect(calls.value == 1)
                #expect(Set(results.map(ObjectIdentifier.init)).count == 1)
            }
        }
    }

    /// The same for factories declared `.cached` and `.singleton` in a container with nothing
    /// registered, whose resolves skip `prepare`: one creation, which every thread gets.
    @Test func declaredFactoriesOfAPlainContainerRunExactlyOnceUnderContention() {
        for _ in 0..<Self.rounds {
            Scope.withIsolatedSingletons {
                let container = CountingContainer()
                let results = runOnThreads(Self.threads) { index in
                    index.isMultiple(of: 2) ? container.slowCached() : container.slowSingleton()
                }
                #expect(container.made.value == 2)
                #expect(Set(results.map(ObjectIdentifier.init)).count == 2)
            }
        }
    }

    /// Threads that let go of a weakly held instance while others resolve it: whenever one is
    /// alive, everyone gets that one; once it is gone, exactly one new one is made.
    @Test(arguments: [Scope.shared, .weakSingleton, Scope.Custom(name: "weak", reference: .weak)])
    func weakScopesReleaseAndRecreateUnderContention(scope: Scope) {
        Scope.withIsolatedSingletons {
            let container = Container()
            let calls = Counter()
            let factory = container.uniqueThing.register {
                calls.increment()
                return Thing(id: calls.value)
            }.scope(scope)
            for _ in 0..<Self.rounds {
                let before = calls.value
                let results = runOnThreads(Self.threads) { _ in
                    (0..<50).map { _ in factory().id }
                }
                // Every thread let go between resolves, so instances came and went; but two
                // never lived at once, so one round's ids run in order.
                let ids = Set(results.joined())
                let after = calls.value
                #expect(
                    ids.allSatisfy { $0 > before && $0 <= after },
                    "made before this round: \(before), by its end: \(after), seen: \(ids.sorted())"
                )
                let held = runOnThreads(Self.threads) { _ in factory() }
                #expect(Set(held.map(ObjectIdentifier.init)).count == 1)
            }
        }
    }

    @Test func scopedParameterFactoryRunsOncePerParameter() {
        let container = Container()
        let calls = Counter()
        container.thingPerID.register { id in
            calls.increment()
            usleep(100)
            return Thing(id: id)
        }
        let results = runOnThreads(Self.threads) { index in container.thingPerID(index % 4) }
        #expect(calls.value == 4)
        #expect(Set(results.map(ObjectIdentifier.init)).count == 4)
        #expect(results.allSatisfy { $0 === container.thingPerID($0.id) })
    }

    @Test func separateContainersEachGetTheirOwnInstance() {
        let containers = (0..<4).map { _ in Container() }
        let results = runOnThreads(Self.threads) { index in
            containers[index % 4].cachedThing()
        }
        for index in 0..<4 {
            let mine = results.enumerated().filter { $0.offset % 4 == index }.map(\.element)
            #expect(Set(mine.map(ObjectIdentifier.init)).count == 1)
        }
        #expect(Set(results.map(ObjectIdentifier.init)).count == 4)
    }

    @Test func cacheHitNeverWaitsForAnotherKeysFactory() {
        let container = Container()
        let hit = container.cachedService()
        let blocked = BlockedCreation(container.cachedThing)
        #expect(blocked.waitUntilStarted())
        let served = DispatchSemaphore(value: 0)
        startThread {
            precondition(container.cachedService() === hit)
            _ = container.uniqueThing()
            served.signal()
        }
        #expect(signalled(served, within: hangLimit))
        blocked.release()
    }

    @Test func slowFactoryInOneContainerDoesNotDelayAnother() {
        let slow = Container()
        let fast = Container()
        let blocked = BlockedCreation(slow.cachedThing)
        #expect(blocked.waitUntilStarted())
        let served = DispatchSemaphore(value: 0)
        startThread {
            _ = fast.cachedThing()
            _ = fast.cachedThing()
            served.signal()
        }
        #expect(signalled(served, within: hangLimit))
        blocked.release()
    }

    @Test func waitersGetTheInstanceOfTheCreationTheyWaitedFor() {
        let container = Container()
        let blocked = BlockedCreation(container.cachedThing)
        #expect(blocked.waitUntilStarted())
        let (waiters, seen) = startWaiters(8) { container.cachedThing() }
        blocked.release()
        #expect(blocked.waitUntilFinished())
        #expect(waiters.wait(timeout: .now() + hangLimit) == .success)
        #expect(blocked.calls.value == 1)
        #expect(Set(seen.current) == [ObjectIdentifier(blocked.result.current!)])
    }

    @Test func dependentCreationsRacingOnManyThreadsDoNotDeadlock() {
        for _ in 0..<Self.rounds {
            let container = Container()
            let results = runOnThreads(Self.threads) { index in
                switch index % 4 {
                case 0: ObjectIdentifier(container.pairA().partner)
                case 1: ObjectIdentifier(container.pairB().partner)
                case 2: ObjectIdentifier(container.pairASibling())
                default: ObjectIdentifier(container.pairBSibling())
                }
            }
            let sibling = container.pairASibling()
            #expect(container.pairA().partner === sibling)
            #expect(container.pairB().partner === sibling)
            #expect(results.count == Self.threads)
        }
    }

    @Test func resetDuringCreationDropsTheInFlightInstance() {
        let container = Container()
        let blocked = BlockedCreation(container.cachedThing)
        #expect(blocked.waitUntilStarted())
        container.manager.reset(scope: .cached)
        blocked.release()
        #expect(blocked.waitUntilFinished())
        let after = container.cachedThing()
        #expect(after !== blocked.result.current)
        #expect(container.cachedThing() === after)
        #expect(blocked.calls.value == 2)
    }

    /// A reset cancels a creation that threads wait for: they wake when it ends, though nothing
    /// was kept, and all get the one instance made after it.
    @Test func waitersOfACancelledCreationWakeAndShareTheNextOne() {
        let container = Container()
        let blocked = BlockedCreation(container.cachedThing)
        #expect(blocked.waitUntilStarted())
        let (waiters, seen) = startWaiters(8) { container.cachedThing() }
        container.manager.reset(scope: .cached)
        blocked.release()
        #expect(blocked.waitUntilFinished())
        #expect(waiters.wait(timeout: .now() + hangLimit) == .success)
        #expect(blocked.calls.value == 2)
        let next = container.cachedThing()
        #expect(next !== blocked.result.current)
        #expect(Set(seen.current) == [ObjectIdentifier(next)])
    }

    @Test func settingsAreSafeToChangeWhileResolving() {
        let container = Container()
        container.manager.logger = { _ in }
        _ = runOnThreads(Self.threads) { index in
            for round in 0..<200 {
                if index == 0 { container.manager.trace = round % 2 == 0 }
                if index == 1 { FactoryContext.setArg("\(round)", forKey: "stress") }
                if index == 2 { container.manager.defaultScope = round % 2 == 0 ? .cached : nil }
                _ = container.cachedThing()
                _ = container.service()
            }
            return 0
        }
        FactoryContext.removeArg(forKey: "stress")
        #expect(container.cachedThing() === container.cachedThing())
    }
}

/// A needs B, B needs A's sibling, B's sibling needs A: creations that depend on each other
/// without a cycle, raced from every entry point.
final class Pair: @unchecked Sendable {
    let partner: Thing
    init(partner: Thing) { self.partner = partner }
}

extension Container {
    var pairA: Factory<Pair> { self { Pair(partner: self.pairB().partner) }.cached }
    var pairB: Factory<Pair> { self { Pair(partner: self.pairASibling()) }.cached }
    var pairASibling: Factory<Thing> {
        self {
            usleep(100)
            return Thing(id: 1)
        }.cached
    }
    var pairBSibling: Factory<Thing> {
        self {
            _ = self.pairA()
            return Thing(id: 2)
        }.cached
    }
}

/// A container whose declared factories count how often they run.
final class CountingContainer: SharedContainer {
    @TaskLocal static var shared = CountingContainer()
    let manager = ContainerManager()
    let made = Counter()

    var slowCached: Factory<Thing> { self { self.slowThing() }.cached }
    var slowSingleton: Factory<Thing> { self { self.slowThing() }.singleton }

    /// A new thing, counted, after a pause that lets other threads pile up on the creation.
    private func slowThing() -> Thing {
        made.increment()
        usleep(200)
        return Thing()
    }
}
