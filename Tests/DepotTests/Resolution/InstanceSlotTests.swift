import Depot
import Testing

extension AsyncContainer {
    /// Made once; every later run of the closure fails.
    var flakyConnection: AsyncFactory<Connection> {
        self {
            self.made.increment()
            guard self.made.value == 1 else { throw Failure(message: "down") }
            return Connection("flaky")
        }.cached.onDispose { _ in self.journal.append("flaky") }
    }

    /// Lists what the container keeps while its closure runs.
    var inventorying: Factory<Connection> {
        self {
            self.journal.append("\(self.manager.cachedInstances())")
            return Connection("inventorying")
        }.cached
    }
}

/// How a key's slot in an instance table moves between being created, ready and stored by a
/// custom scope, seen through the public API.
@Suite(.timeLimit(.minutes(1))) struct InstanceSlotTests {
    @Test func anExpiredInstanceIsDisposedWhenItsReplacementStartsEvenIfThatFails() async throws {
        let container = AsyncContainer()
        let now = Locked(0.0)
        container.manager.clock = ContainerManager.Clock { now.current }
        let factory = container.flakyConnection.timeToLive(10)
        let first = try await factory()
        now.withLock { $0 = 20 }
        await #expect(throws: Failure(message: "down")) { try await factory() }
        // The expired instance is gone with its slot, not kept until a shutdown.
        try await container.journal.wait(for: 1)
        #expect(container.journal.entries == ["flaky"])
        await #expect(throws: Failure(message: "down")) { try await factory() }
        await container.shutdown()
        #expect(container.journal.entries == ["flaky"])
        withExtendedLifetime(first) {}
    }

    @Test func anInstanceBeingCreatedIsNotInTheInventoryUntilItIsKept() {
        let container = AsyncContainer()
        _ = container.inventorying()
        #expect(container.journal.entries == ["[:]"])
        #expect(container.manager.cachedInstances() == ["cached": ["inventorying<Connection>"]])
    }

    @Test func aResetWhileTheFactoryRunsLeavesItsValueUnkept() {
        let container = Container()
        let made = Counter()
        let factory = container.cachedThing
        factory.register {
            made.increment()
            // The first creation is cancelled by the reset; it still returns its value.
            if made.value == 1 { container.manager.reset(scope: .cached) }
            return Thing(id: made.value)
        }
        let first = factory()
        #expect(first.id == 1)
        let second = factory()
        #expect(second.id == 2)
        #expect(factory() === second)
    }

    @Test func popForgetsACreationInFlight() {
        let container = Container()
        container.manager.push()
        let made = Counter()
        container.cachedThing.register {
            made.increment()
            // Popped while it runs: this registration, and what it makes, belong to nothing.
            if made.value == 1 { container.manager.pop() }
            return Thing(id: made.value)
        }
        let first = container.cachedThing()
        #expect(first.id == 1)
        let declared = container.cachedThing()
        #expect(declared !== first)
        #expect(container.cachedThing() === declared)
        #expect(made.value == 1)
    }
}
