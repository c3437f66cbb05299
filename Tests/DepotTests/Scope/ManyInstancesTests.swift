import Depot
import Foundation
import Testing

/// A container's table of kept instances under many keys: it grows, and a key removed from
/// among others (a factory's reset) leaves every other instance where a lookup finds it.
@Suite struct ManyInstancesTests {
    /// Three hundred `.cached` factories in one container, whose keys differ by type alone;
    /// every third is reset: the others keep their instances, the reset ones make new ones.
    @Test func resettingSomeOfManyCachedFactoriesKeepsEveryOtherInstance() {
        var walk = Walk(container: Container())
        walk.visit(Never.self, depth: 0, .resolve)
        walk.visit(Never.self, depth: 0, .resetEveryThird)
        walk.visit(Never.self, depth: 0, .check)
        #expect(walk.kept.count == Walk.count)
        #expect(walk.mismatches == 0)
        // Reset again, the rest this time, and everything resolves afresh once, then hits.
        walk.visit(Never.self, depth: 0, .resetAll)
        walk.kept = []
        walk.visit(Never.self, depth: 0, .resolve)
        walk.visit(Never.self, depth: 0, .checkAllKept)
        #expect(walk.mismatches == 0)
    }

    /// A `.cached` factory kept per parameter holds one instance for each of 2,000 values, all
    /// found again after the table has grown around them.
    @Test func thousandsOfParametersEachKeepTheirInstance() {
        let container = Container()
        let box = ParameterFactory(container) { (id: Int) in Box(id: id) }.cached
            .scopeOnParameters
        let first = (0..<2_000).map { box($0) }
        #expect((0..<2_000).allSatisfy { box($0) === first[$0] && first[$0].id == $0 })
        box.reset(.scope)
        #expect(box(7) !== first[7])
    }

    @Test(arguments: [Double.nan, -Double.nan, Double(bitPattern: 0x7FF8_0000_0000_1234)])
    func parametersNotEqualToThemselvesShareOneInstance(nan: Double) {
        let container = Container()
        let box = ParameterFactory(container) { (x: Double) in Box(id: x.isNaN ? -1 : Int(x)) }
            .cached.scopeOnParameters
        let first = box(nan)
        // Each would otherwise be a new instance, kept and never found again: 10,000 of them
        // took seconds, growing with every one.
        #expect((0..<10_000).allSatisfy { _ in box(nan) === first && box(.nan) === first })
        #expect(box(1) !== first)
        #expect(
            container.manager.cachedInstances()["cached"]?.count == 2,
            "\(container.manager.cachedInstances())")
    }

    /// A stream of distinct parameters through a factory kept per parameter with a time to
    /// live, as a server's cache of sessions by token is: the instances that expired are let
    /// go of, and disposed, as new ones come, so the table keeps a bounded number (about twice
    /// the live ones), and never one still live.
    @Test(arguments: ["cached", "singleton"])
    func expiredInstancesOfAStreamOfParametersDoNotAccumulate(scope: String) async throws {
        let disposed = Locked(0)
        try await Scope.withIsolatedSingletons {
            let container = Container()
            let now = Locked(0.0)
            container.manager.clock = ContainerManager.Clock { now.current }
            let declared = ParameterFactory(container) { (id: Int) in Box(id: id) }
            let box = (scope == "cached" ? declared.cached : declared.singleton)
                .scopeOnParameters.timeToLive(1).onDispose { _ in disposed.withLock { $0 += 1 } }
            // A hundred are live at any time: each lives one second, a new one comes every 10 ms.
            var recent: [Int: Box] = [:]
            for id in 0..<10_000 {
                let made = box(id)
                if id >= 9_950 { recent[id] = made }
                now.withLock { $0 += 0.01 }
            }
            let kept = container.manager.cachedInstances()[scope]?.count ?? 0
            #expect(kept >= 50 && kept <= 2 * 100 + 64, "\(kept) kept")
            #expect(recent.allSatisfy { id, made in box(id) === made })
            // The swept instances are disposed in tasks of their own.
            for _ in 0..<1_000 where disposed.current < 10_000 - kept {
                try await Task.sleep(for: .milliseconds(5))
            }
            #expect(disposed.current >= 10_000 - kept)
        }
    }

    /// Singletons of two container types, from factories of one name and type with different
    /// times to live, share one table: a sweep judges each by its own.
    @Test func aSweepJudgesEachContainerTypesSingletonsByTheirOwnTimeToLive() {
        Scope.withIsolatedSingletons {
            let now = Locked(0.0)
            let (long, short) = (LongLivedTokens(), ShortLivedTokens())
            long.manager.clock = ContainerManager.Clock { now.current }
            short.manager.clock = ContainerManager.Clock { now.current }
            let kept = long.token(0)
            // Ten seconds of short-lived tokens: sweeps run, and let theirs go.
            for id in 0..<1_000 {
                _ = short.token(id)
                now.withLock { $0 += 0.01 }
            }
            #expect(long.token(0) === kept)
            #expect((short.manager.cachedInstances()["singleton"]?.count ?? 0) <= 2 * 100 + 64)
        }
    }

    /// A factory kept with a time to live, then (its instance reset) without one: a sweep no
    /// longer judges its instance by the old time.
    @Test func anInstanceKeptWithoutATimeToLiveIsNeverSwept() {
        let container = Container()
        let now = Locked(0.0)
        container.manager.clock = ContainerManager.Clock { now.current }
        let expiring = Factory(container, key: "box") { Box(id: 1) }.cached.timeToLive(1)
        let lasting = Factory(container, key: "box") { Box(id: 1) }.cached
        _ = expiring()
        lasting.reset()
        let kept = lasting()
        let others = ParameterFactory(container) { (id: Int) in Box(id: id) }.cached
            .scopeOnParameters.timeToLive(1)
        for id in 0..<1_000 {
            _ = others(id)
            now.withLock { $0 += 0.01 }
        }
        #expect(lasting() === kept)
    }
}

private final class LongLivedTokens: ManagedContainer {
    let manager = ContainerManager()
    var token: ParameterFactory<Int, Box> {
        self { Box(id: $0) }.singleton.scopeOnParameters.timeToLive(1_000)
    }
}

private final class ShortLivedTokens: ManagedContainer {
    let manager = ContainerManager()
    var token: ParameterFactory<Int, Box> {
        self { Box(id: $0) }.singleton.scopeOnParameters.timeToLive(1)
    }
}

private final class Box: Sendable {
    let id: Int
    init(id: Int) { self.id = id }
}

/// A type per nesting depth, for a factory key per depth.
private enum Nested<T> {}

private final class Kept<T>: Sendable {}

extension Container {
    /// One `.cached` factory per type `T`.
    fileprivate func kept<T>(_: T.Type) -> Factory<Kept<T>> {
        self(key: "kept") { Kept<T>() }.cached
    }
}

/// Visits the factories `kept(Nested<...<Never>>)` at depths 0 to `count - 1`.
private struct Walk {
    static let count = 300

    enum Step {
        case resolve, resetEveryThird, resetAll, check, checkAllKept
    }

    let container: Container
    var kept: [AnyObject] = []
    var mismatches = 0

    mutating func visit<T>(_: T.Type, depth: Int, _ step: Step) {
        let factory = container.kept(T.self)
        switch step {
        case .resolve:
            kept.append(factory())
        case .resetEveryThird:
            if depth % 3 == 0 { factory.reset() }
        case .resetAll:
            factory.reset()
        case .check:
            // Depths reset made a new instance; the others found theirs.
            if (factory() === kept[depth]) == (depth % 3 == 0) { mismatches += 1 }
            if factory() !== factory() { mismatches += 1 }
        case .checkAllKept:
            if factory() !== kept[depth] { mismatches += 1 }
        }
        if depth + 1 < Self.count {
            visit(Nested<T>.self, depth: depth + 1, step)
        }
    }
}
