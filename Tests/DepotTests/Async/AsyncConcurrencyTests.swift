import Depot
import Testing

/// Exactly once over tasks, waiters that suspend, cancellation and errors, and the graph that
/// follows a resolution across awaits.
@Suite(.timeLimit(.minutes(2))) struct AsyncConcurrencyTests {
    @Test func aThousandTasksGetOneSingletonCreation() async throws {
        try await Scope.withIsolatedSingletons {
            let container = AsyncContainer()
            let instances = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
                for _ in 0..<1000 {
                    group.addTask { ObjectIdentifier(try await container.singletonConnection()) }
                }
                return try await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
            }
            #expect(instances.count == 1)
            #expect(container.made.value == 1)
        }
    }

    /// 1,000 tasks wait for a creation that itself waits: if a waiter held one of the
    /// cooperative pool's threads (2 here), the creation could never go on.
    @Test func waitersDoNotStarveTheCooperativePool() async throws {
        let container = AsyncContainer()
        let names = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<1000 {
                group.addTask { try await container.slowConnection().name }
            }
            group.addTask {
                // Opens the gate once the creation has started and the others are queued.
                while container.made.value == 0 { await Task.yield() }
                try await Task.sleep(for: .milliseconds(50))
                container.gate.open()
                return "slow"
            }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(names.count == 1001)
        #expect(Set(names) == ["slow"])
        #expect(container.made.value == 1)
    }

    @Test func aCancelledWaiterThrowsAtOnceAndTheCreationGoesOn() async throws {
        let container = AsyncContainer()
        let first = Task { try await container.slowConnection() }
        while container.made.value == 0 { await Task.yield() }
        let waiter = Task { try await container.slowConnection() }
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        container.gate.open()
        let made = try await first.value
        #expect(try await container.slowConnection() === made)
        #expect(container.made.value == 1)
    }

    @Test func cancellingTheTaskThatStartedACreationLeavesItToTheOthers() async throws {
        let container = AsyncContainer()
        let starter = Task { try await container.slowConnection() }
        while container.made.value == 0 { await Task.yield() }
        let other = Task { try await container.slowConnection() }
        starter.cancel()
        await #expect(throws: CancellationError.self) { try await starter.value }
        container.gate.open()
        let made = try await other.value
        #expect(made.name == "slow")
        #expect(try await container.slowConnection() === made)
        #expect(container.made.value == 1)
    }

    @Test func anErrorReachesEveryWaiterAndIsNotKept() async throws {
        let container = AsyncContainer()
        let tasks = (0..<20).map { _ in Task { try await container.failingOnce() } }
        while container.made.value == 0 { await Task.yield() }
        try await Task.sleep(for: .milliseconds(20))
        container.gate.open()
        for task in tasks {
            await #expect(throws: Failure(message: "first try")) { try await task.value }
        }
        #expect(container.made.value == 1)
        let retried = try await container.failingOnce()
        #expect(retried.name == "second try")
        #expect(container.made.value == 2)
        #expect(try await container.failingOnce() === retried)
    }

    @Test func oneGraphPerResolutionSharedAcrossAwaitsAndChildTasks() async throws {
        let container = AsyncContainer()
        let pair = try await container.graphPair()
        #expect(pair.first === pair.second)
        let other = try await container.graphPair()
        #expect(other.first !== pair.first)
    }

    @Test func concurrentResolutionsNeverShareAGraph() async throws {
        let container = AsyncContainer()
        let pairs = try await withThrowingTaskGroup(of: ConnectionPair.self) { group in
            for _ in 0..<100 { group.addTask { try await container.graphPair() } }
            return try await group.reduce(into: [ConnectionPair]()) { $0.append($1) }
        }
        #expect(pairs.allSatisfy { $0.first === $0.second })
        #expect(Set(pairs.map { ObjectIdentifier($0.first) }).count == 100)
    }

    @Test func syncGraphFactoriesJoinTheAsyncResolutionsGraph() async throws {
        let container = AsyncContainer()
        let pair = try await container.mixedGraph()
        #expect(pair.first === pair.second)
        #expect(try await container.mixedGraph().first !== pair.first)
    }

    @Test func syncGraphFactoriesInChildTasksMakeOneInstance() async throws {
        let container = AsyncContainer()
        let pair = try await container.concurrentSyncGraph()
        #expect(pair.first === pair.second)
        #expect(container.made.value == 1)
    }

    @Test func aHundredChildTasksGetOneInstanceOfEachGraphFactory() async throws {
        let container = AsyncContainer()
        for round in 1...3 {
            let made = try await container.manyChildTasksInOneGraph()
            #expect(made.count == 200)
            // The synchronous one and the async one: two instances in each resolution's graph.
            #expect(Set(made).count == 2)
            #expect(container.made.value == round)
        }
    }

    @Test func cachedCreationsStayExactlyOnceUnderResetsAndManyTasks() async throws {
        let container = AsyncContainer()
        for _ in 0..<20 {
            let values = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
                for _ in 0..<50 {
                    group.addTask { ObjectIdentifier(try await container.cachedConnection()) }
                }
                return try await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
            }
            #expect(values.count == 1)
            container.manager.reset(options: .scope)
        }
        #expect(container.made.value == 20)
    }

    /// A thousand creations of one table in flight at once (one per parameter value, far past
    /// the few its list holds before they move to its index), each also awaited by a second
    /// task, then ended together: each runs once, both askers get it, and it is kept.
    @Test func aThousandCreationsOfOneTableInFlightEachRunOnce() async throws {
        let container = AsyncContainer()
        let count = 1000
        let names = try await withThrowingTaskGroup(of: (Int, ObjectIdentifier).self) { group in
            for id in 0..<count {
                for _ in 0..<2 {
                    group.addTask { (id, ObjectIdentifier(try await container.gatedAccount(id))) }
                }
            }
            // Opens the gate once every creation has started.
            while container.made.value < count { await Task.yield() }
            container.gate.open()
            return try await group.reduce(into: [Int: Set<ObjectIdentifier>]()) {
                $0[$1.0, default: []].insert($1.1)
            }
        }
        #expect(container.made.value == count)
        #expect(names.count == count)
        #expect(names.values.allSatisfy { $0.count == 1 })
        for id in [0, count / 2, count - 1] {
            #expect(try await ObjectIdentifier(container.gatedAccount(id)) == names[id]?.first)
        }
        #expect(container.made.value == count)
    }
}
