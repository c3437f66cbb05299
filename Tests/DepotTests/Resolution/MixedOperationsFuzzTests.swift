import Depot
import Foundation
import Testing

/// Threads run random mixes of resolves, registrations, resets, lifetime scopes, children and
/// `push()`/`pop()` on one container. Whatever the interleaving: nothing stops or deadlocks, a
/// graph-scoped part is one instance per resolution, an instance is disposed at most once, and
/// once everything is let go, every instance is gone.
@Suite(.serialized) struct MixedOperationsFuzzTests {
    static let threads = 8
    static let operations = 1_500

    @Test(arguments: [1, 2, 3])
    func randomMixesKeepEveryInvariant(seed: UInt64) async throws {
        let ledger = FuzzLedger()
        FuzzContainer.ledger = ledger
        let failures = Locked<[String]>([])
        await Scope.withIsolatedSingletons {
            let container = FuzzContainer()
            // The threads do not inherit the task-local singleton scope: they get this one,
            // so that a reset reaches the fuzz's singletons, not the process's.
            let singletons = Scope.singleton
            _ = runOnThreads(Self.threads) { index in
                var random = FuzzRandom(state: seed &* 1_000 &+ UInt64(index))
                for step in 0..<Self.operations {
                    if let failure = Self.randomOperation(
                        on: container, singletons: singletons, using: &random)
                    {
                        failures.withLock {
                            $0.append("seed \(seed), thread \(index), step \(step): \(failure)")
                        }
                    }
                }
                return 0
            }
            _ = await container.shutdown()
            _ = await Scope.singleton.shutdown()
            _ = await FuzzContainer.session.shutdown()
        }
        // Instances dropped by a reset are disposed in tasks of their own: wait for them.
        let deadline = Date().addingTimeInterval(20)
        while ledger.live > 0, Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(failures.current.isEmpty, "\(failures.current.prefix(5))")
        #expect(ledger.made > Self.threads * Self.operations / 4)
        #expect(ledger.disposedCount > 0)
        let disposedTwice = ledger.disposedTwice
        #expect(disposedTwice.count == 0, "disposed twice: \(disposedTwice.prefix(5))...")
        #expect(ledger.live == 0, "\(ledger.live) of \(ledger.made) instances still alive")
    }

    /// Tasks run random mixes of async resolves, cancellations, resets, registrations and
    /// lifetime scopes: a resolve whose task is not cancelled never throws, a graph-scoped
    /// part is one instance across awaits and child tasks, an instance is disposed at most
    /// once, and once everything is let go, every instance is gone.
    @Test(arguments: [1, 2])
    func randomAsyncMixesKeepEveryInvariant(seed: UInt64) async throws {
        let ledger = FuzzLedger()
        FuzzContainer.ledger = ledger
        let failures = await Scope.withIsolatedSingletons {
            let container = FuzzContainer()
            let failures = await withTaskGroup(of: [String].self) { group in
                for index in 0..<Self.tasks {
                    group.addTask {
                        var random = FuzzRandom(state: seed &* 1_000 &+ UInt64(index))
                        var failures: [String] = []
                        for step in 0..<Self.asyncOperations {
                            do {
                                try await Self.randomAsyncOperation(on: container, using: &random)
                            } catch {
                                failures.append(
                                    "seed \(seed), task \(index), step \(step): \(error)")
                            }
                        }
                        return failures
                    }
                }
                return await group.reduce(into: []) { $0 += $1 }
            }
            _ = await container.shutdown()
            _ = await Scope.singleton.shutdown()
            return failures
        }
        let deadline = Date().addingTimeInterval(20)
        while ledger.live > 0, Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
        #expect(ledger.made > Self.tasks * Self.asyncOperations / 4)
        #expect(ledger.disposedCount > 0)
        let disposedTwice = ledger.disposedTwice
        #expect(disposedTwice.count == 0, "disposed twice: \(disposedTwice.prefix(5))...")
        #expect(ledger.live == 0, "\(ledger.live) of \(ledger.made) instances still alive")
    }

    static let tasks = 64
    static let asyncOperations = 150

    /// What went wrong in an async operation.
    struct Broken: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs one random async operation on `container`; throws what went wrong, if anything.
    static func randomAsyncOperation(
        on container: FuzzContainer, using random: inout FuzzRandom
    ) async throws {
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<15: _ = try await container.asyncCached()
        case 15..<25: _ = try await container.asyncSingleton()
        case 25..<35: _ = try await container.asyncExpiring()
        case 35..<50:
            let built = try await container.asyncBuilt()
            guard built.parts[0] === built.parts[1] else {
                throw Broken(description: "a graph-scoped part was made twice in one resolution")
            }
        case 50..<62:
            // A resolve cancelled at a random moment: it throws CancellationError or returns.
            let task = Task { try await container.asyncBuilt() }
            if Bool.random(using: &random) { await Task.yield() }
            task.cancel()
            do {
                _ = try await task.value
            } catch is CancellationError {}
        case 62..<68:
            container.asyncCached.register { [ledger = container.ledger] in
                await Task.yield()
                return FuzzThing(ledger)
            }
        case 68..<74: container.manager.reset(scope: .cached)
        case 74..<78: Scope.singleton.reset()
        case 78..<92:
            let scope = container.newLifetimeScope()
            let first = try await scope.asyncCached()
            _ = try await scope.asyncBuilt()
            guard try await scope.asyncCached() === first else {
                throw Broken(description: "a lifetime scope's cached instance changed")
            }
            if Bool.random(using: &random) { _ = await scope.shutdown() }
        default:
            _ = container.asyncCached.reset()
        }
    }

    /// Runs one random operation on `container`; returns what went wrong, if anything.
    static func randomOperation(
        on container: FuzzContainer, singletons: Scope, using random: inout FuzzRandom
    ) -> String? {
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<12: _ = container.cached()
        case 12..<20: _ = container.expiring()
        case 20..<28: _ = container.shared()
        case 28..<34: _ = container.singleton()
        case 34..<38: _ = container.weakSingleton()
        case 38..<44: _ = container.session()
        case 44..<50: _ = container.perParameter(Int.random(in: 0..<4, using: &random))
        case 50..<60:
            let built = container.built()
            guard built.parts[0] === built.parts[1] else {
                return "a graph-scoped part was made twice in one resolution"
            }
        case 60..<64: _ = container.lazyHolder().part.value
        case 64..<68:
            // Registered closures capture the ledger, not the container they are kept in.
            let ledger = container.ledger
            container.cached.register { FuzzThing(ledger) }
        case 68..<71: container.manager.reset(scope: .cached)
        case 71..<73: container.manager.reset(options: .scope)
        case 73..<75: FuzzContainer.session.reset()
        case 75..<77: singletons.reset()
        case 77..<87:
            let scope = container.newLifetimeScope()
            let first = scope.cached()
            _ = scope.built()
            _ = scope.session()
            // Nothing else reaches this scope's caches: its instance stays.
            guard first === scope.cached() else {
                return "a lifetime scope's cached instance changed with nothing resetting it"
            }
        case 87..<93:
            let child = container.makeChild()
            child.shared.register { [ledger = child.ledger] in FuzzThing(ledger) }
            _ = child.built()
            _ = child.shared()
        case 93..<95:
            container.manager.push()
            container.expiring.register { [ledger = container.ledger] in FuzzThing(ledger) }
            _ = container.expiring()
            container.manager.pop()
        default:
            _ = container.cached.reset()
        }
        return nil
    }
}
