import Foundation
import Testing

@testable import Depot

/// A container's first resolve runs its `autoRegister()`, once, under a gate that other threads
/// wait at; a container with no `autoRegister()` has nothing to wait for and makes no gate. Either
/// way, the first resolve then takes the path every later one takes.
@Suite struct FirstResolveTests {
    private let anyKey = FactoryKey(name: "anything", type: Int.self)

    @Test func aContainerWithNoAutoRegisterMakesNoGateAndIsPlainOnceResolved() {
        let container = ServiceContainer()
        #expect(!container.manager.plainness(for: anyKey).isPlain)
        let service = container.service()
        #expect(container.manager.plainness(for: anyKey).isPlain)
        #expect(container.service() === service)
        #expect(container.manager.state.withLock { $0.seldomUsed == nil })
        // A reset of the registrations asks again, and again finds nothing to run.
        container.manager.reset()
        #expect(!container.manager.plainness(for: anyKey).isPlain)
        #expect(container.service() !== service)
        #expect(container.manager.plainness(for: anyKey).isPlain)
        #expect(container.manager.state.withLock { $0.seldomUsed == nil })
    }

    @Test func aContainerWithAnAutoRegisterRunsItOnceBeforeItsFirstResolveReturns() {
        let container = AutoContainer()
        #expect((container.service() as? MockService)?.name == "auto")
        #expect(container.autoRegistrations.value == 1)
        #expect(container.manager.state.withLock { $0.seldomUsed?.autoRegistrationGate != nil })
        _ = container.service()
        #expect(container.autoRegistrations.value == 1)
    }

    /// Threads that resolve a new container at once all take one instance of a cached factory,
    /// whether or not the container has an `autoRegister()` to wait for.
    @Test func threadsThatResolveANewContainerAtOnceShareOneInstance() {
        for _ in 0..<50 {
            let plain = ServiceContainer()
            let auto = AutoContainer()
            let found = Locked<[ObjectIdentifier: Int]>([:])
            DispatchQueue.concurrentPerform(iterations: 8) { index in
                let instance: AnyObject =
                    index.isMultiple(of: 2) ? plain.service() : auto.resolvedDuringAutoRegister()
                found.withLock { $0[ObjectIdentifier(instance), default: 0] += 1 }
            }
            #expect(found.withLock { $0.count } == 2)
            #expect(auto.autoRegistrations.value == 1)
        }
    }
}
