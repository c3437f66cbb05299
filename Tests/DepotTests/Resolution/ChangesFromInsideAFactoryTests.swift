import Depot
import Testing

/// A factory's closure that changes its own container while it runs: it registers its own
/// replacement, or resets the container. The change takes effect, the running resolve still
/// gets what its closure makes, and that value is not kept where the change says it must not
/// be: no lock is held while the closure runs, and a creation started before a change does not
/// outlive it. A decorator or a disposer may change the container too: both run after the lock.
final class SelfChangingContainer: ManagedContainer {
    let manager = ContainerManager()
    let made = Counter()
}

extension SelfChangingContainer {
    var replacesItself: Factory<Thing> {
        self {
            self.made.increment()
            self.replacesItself.register { Thing(id: 2) }
            return Thing(id: 1)
        }.cached
    }
    var resetsItsContainer: Factory<Thing> {
        self {
            self.made.increment()
            self.manager.reset()
            return Thing(id: 3)
        }.cached
    }
    var keptBeforeTheReset: Factory<Thing> { self { Thing(id: 4) }.cached }
    var decoratorResets: Factory<Thing> {
        self {
            self.made.increment()
            return Thing(id: 8)
        }.cached.decorator { _ in self.manager.reset(options: .scope) }
    }
    var replacesItselfAsync: AsyncFactory<Thing> {
        self {
            self.made.increment()
            await Task.yield()
            self.replacesItselfAsync.register { Thing(id: 6) }
            return Thing(id: 5)
        }.cached
    }
    var disposesByResolving: Factory<Thing> {
        self { Thing(id: 7) }.cached.onDispose { _ in
            _ = self.keptBeforeTheReset()
            self.made.increment()
        }
    }
}

@Suite struct ChangesFromInsideAFactoryTests {
    @Test func aClosureThatRegistersItsReplacementHandsOutItsValueWithoutKeepingIt() {
        let container = SelfChangingContainer()
        let first = container.replacesItself()
        #expect(first.id == 1)
        let second = container.replacesItself()
        #expect(second.id == 2)
        #expect(container.replacesItself() === second)
        #expect(container.made.value == 1)
    }

    @Test func aClosureThatResetsItsContainerHandsOutItsValueWithoutKeepingIt() {
        let container = SelfChangingContainer()
        let before = container.keptBeforeTheReset()
        let first = container.resetsItsContainer()
        #expect(first.id == 3)
        // The reset forgot what the container kept before it, and kept nothing made during it.
        #expect(container.keptBeforeTheReset() !== before)
        #expect(container.resetsItsContainer() !== first)
        #expect(container.made.value == 2)
    }

    @Test func aDecoratorThatResetsItsContainerRunsAfterTheLock() {
        let container = SelfChangingContainer()
        let first = container.decoratorResets()
        // The decorator ran after the value was kept, and its reset let the value go.
        let second = container.decoratorResets()
        #expect(second !== first)
        #expect(container.made.value == 2)
    }

    @Test func anAsyncClosureThatRegistersItsReplacementHandsOutItsValueWithoutKeepingIt()
        async throws
    {
        let container = SelfChangingContainer()
        let first = try await container.replacesItselfAsync()
        #expect(first.id == 5)
        let second = try await container.replacesItselfAsync()
        #expect(second.id == 6)
        #expect(try await container.replacesItselfAsync() === second)
        #expect(container.made.value == 1)
    }

    @Test func aDisposerThatResolvesFromItsContainerRunsAfterTheLock() async {
        let container = SelfChangingContainer()
        _ = container.disposesByResolving()
        let errors = await container.shutdown()
        #expect(errors.isEmpty)
        #expect(container.made.value == 1)
        // What the disposer made is kept by the emptied container, which stays usable.
        #expect(container.keptBeforeTheReset() === container.keptBeforeTheReset())
        #expect(container.disposesByResolving() === container.disposesByResolving())
    }
}
