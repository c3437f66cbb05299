import Depot
import Foundation
import Testing

/// A creation that another thread waits for gets its record when that thread finds it: these
/// tests reach that record from a parameter's creation, and through a reset that cancels it
/// while a newer creation of the same key is in flight.
@Suite struct WaitedCreationTests {
    /// Gates that hold the first `count` calls of a factory's closure open, one each.
    final class Gates: Sendable {
        let calls = Counter()
        private let started: [DispatchSemaphore]
        private let gates: [DispatchSemaphore]

        init(count: Int) {
            started = (0..<count).map { _ in DispatchSemaphore(value: 0) }
            gates = (0..<count).map { _ in DispatchSemaphore(value: 0) }
        }

        /// Called by the closure: the `n`th call (from 0) signals it started and waits.
        func pass(_ call: Int) {
            guard call < gates.count else { return }
            started[call].signal()
            gates[call].wait()
        }

        func waitUntilStarted(_ call: Int) -> Bool { signalled(started[call], within: hangLimit) }
        func release(_ call: Int) { gates[call].signal() }
    }

    @Test func waitersOfAParameterCreationShareItsInstance() {
        let container = Container()
        let gates = Gates(count: 1)
        let counter = Counter()
        container.cachedThingWithID.register { id in
            let call = counter.value
            counter.increment()
            gates.pass(call)
            return Thing(id: id)
        }
        let first = Locked<Thing?>(nil)
        let done = DispatchSemaphore(value: 0)
        startThread {
            first.withLock { $0 = container.cachedThingWithID(42) }
            done.signal()
        }
        #expect(gates.waitUntilStarted(0))
        let (waiters, seen) = startWaiters(4) { container.cachedThingWithID(42) }
        gates.release(0)
        #expect(signalled(done, within: hangLimit))
        #expect(waiters.wait(timeout: .now() + hangLimit) == .success)
        let kept = container.cachedThingWithID(42)
        #expect(counter.value == 1)
        #expect(kept.id == 42)
        #expect(first.current.map(ObjectIdentifier.init) == ObjectIdentifier(kept))
        #expect(Set(seen.current) == [ObjectIdentifier(kept)])
    }

    @Test func aCancelledCreationEndsWithoutEndingTheOneStartedAfterIt() {
        let container = Container()
        let gates = Gates(count: 2)
        let counter = Counter()
        container.cachedThing.register {
            let call = counter.value
            counter.increment()
            gates.pass(call)
            return Thing(id: call)
        }
        let results = Locked<[Int: Thing]>([:])
        let done = DispatchGroup()
        func resolve(on slot: Int) {
            done.enter()
            startThread {
                let thing = container.cachedThing()
                results.withLock { $0[slot] = thing }
                done.leave()
            }
        }
        resolve(on: 0)
        #expect(gates.waitUntilStarted(0))
        // Waiters of the first creation: a reset cancels it, and a second one starts.
        let (waiters, seen) = startWaiters(4) { container.cachedThing() }
        container.manager.reset(scope: .cached)
        resolve(on: 1)
        #expect(gates.waitUntilStarted(1))
        // The cancelled creation ends first: its waiters wake and wait for the second.
        gates.release(0)
        usleep(20_000)
        gates.release(1)
        #expect(done.wait(timeout: .now() + hangLimit) == .success)
        #expect(waiters.wait(timeout: .now() + hangLimit) == .success)
        let kept = container.cachedThing()
        #expect(counter.value == 2)
        #expect(kept.id == 1)
        #expect(results.current[0]?.id == 0)
        #expect(results.current[1].map(ObjectIdentifier.init) == ObjectIdentifier(kept))
        #expect(Set(seen.current) == [ObjectIdentifier(kept)])
    }
}
