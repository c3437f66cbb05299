import Foundation
import Testing

@testable import Depot

extension Container {
    /// Two factories of their own keys, in the scope given.
    fileprivate func left(in scope: Scope) -> Thing { self { Thing() }.scope(scope)() }
    fileprivate func right(in scope: Scope) -> Thing { self { Thing() }.scope(scope)() }
}

/// `Scope.reset()` reaches lifetime scopes through the scope's count of resets, checked on
/// their next resolve, not through the process-wide holders that long-lived containers join:
/// making a lifetime scope, resolving in it and ending it takes no process-wide lock.
@Suite struct LifetimeScopeResetTests {
    @Test func aLifetimeScopeIsNeverNotedInItsScopesHolders() {
        let session = Scope.Cached()
        let root = Container()
        _ = root.thing(in: session)
        let request = root.newLifetimeScope()
        _ = request.thing(in: session)
        let holders = session.holdingCaches().map(\.id)
        #expect(holders == [root.manager.caches.id])
    }

    @Test func aResetReachesALiveLifetimeScopeOnItsNextResolve() async throws {
        let session = Scope.Cached()
        let disposed = Locked(0)
        let root = Container()
        let request = root.newLifetimeScope()
        let factory = request.uniqueThing.scope(session).onDispose { _ in
            disposed.withLock { $0 += 1 }
        }
        let first = factory()
        #expect(factory() === first)
        session.reset()
        #expect(request.manager.cachedInstances()[session.description] == nil)
        let second = factory()
        #expect(second !== first)
        // The instance the reset forgot is torn down (in a task) when its cell is replaced.
        for _ in 0..<2_000 where disposed.current == 0 {
            try await Task.sleep(for: .milliseconds(1))
        }
        #expect(disposed.current == 1)
        #expect(factory() === second)
        #expect(request.manager.cachedInstances()[session.description] == ["uniqueThing<Thing>"])
        await request.shutdown()
        #expect(disposed.current == 2)
    }

    @Test func aResetOfAnotherScopeLeavesALifetimeScopesInstancesAlone() {
        let (session, other) = (Scope.Cached(), Scope.Cached())
        let request = Container().newLifetimeScope()
        let kept = request.left(in: session)
        let otherKept = request.right(in: other)
        other.reset()
        #expect(request.left(in: session) === kept)
        #expect(request.right(in: other) !== otherKept)
    }

    @Test func aResetReachesACustomScopesStorageInALifetimeScope() {
        let custom = Scope.Custom(name: "perRequest") { RecordingStorage() }
        let request = Container().newLifetimeScope()
        let factory = request.uniqueThing.scope(custom)
        let first = factory()
        #expect(factory() === first)
        custom.reset()
        #expect(factory() !== first)
    }

    @Test func resetsWhileEightThreadsMakeLifetimeScopesNeverHandBackAForgottenInstance() {
        let session = Scope.Cached()
        let root = Container()
        let stop = Locked(false)
        let resets = Thread { while !stop.current { session.reset() } }
        resets.start()
        let stale = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<500 {
                let request = root.newLifetimeScope()
                let generation = session.generation
                let first = request.thing(in: session)
                let again = request.thing(in: session)
                // Unless a reset ran between them, the same instance; never one from before it.
                if session.generation == generation, again !== first {
                    stale.withLock { $0 += 1 }
                }
            }
        }
        stop.withLock { $0 = true }
        #expect(stale.current == 0)
        #expect(session.holdingCaches().isEmpty)
    }
}
