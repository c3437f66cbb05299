import Depot
import Foundation
import Testing

/// A creation that another thread waits for gets its record when that thread finds it: these
/// tests reach that record from a parameter's creation, and through a reset that cancels it
/// while a newer creation of the same key is in flight. A table links its creations in flight
/// in a list (past eight, an index by key): the last test ends and cancels them from its middle.
@Suite struct WaitedCreationTests {
    /// Gates that hold the first `count` calls of a factory's closure open, one each.
    final class Gates: Sendable {
        /// The calls so far, numbered from 0 by ``passNext()``.
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

        /// Called by the closure: numbers this call (from 0) and passes its gate.
        @discardableResult
        func passNext() -> Int {
            let call = calls.value
            calls.increment()
            pass(call)
            return call
        }

        func waitUntilStarted(_ call: Int) -> Bool { signalled(started[call], within: hangLimit) }
        func release(_ call: Int) { gates[call].signal() }
    }

    /// Runs `make` on a new thread, which keeps what it gives in `results` under `slot` and then
    /// leaves `done`.
    static func resolve(
        _ slot: Int, into results: Locked<[Int: Thing]>, done: DispatchGroup,
        _ make: @escaping @Sendable () -> Thing
    ) {
        done.enter()
        startThread {
            let thing = make()
            results.withLock { $0[slot] = thing }
            done.leave()
        }
    }

    @Test func waitersOfAParameterCreationShareItsInstance() {
        let container = Container()
        let gates = Gates(count: 1)
        container.cachedThingWithID.register { id in
            gates.passNext()
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
        #expect(gates.calls.value == 1)
        #expect(kept.id == 42)
        #expect(first.current.map(ObjectIdentifier.init) == ObjectIdentifier(kept))
        #expect(Set(seen.current) == [ObjectIdentifier(kept)])
    }

    @Test func aCancelledCreationEndsWithoutEndingTheOneStartedAfterIt() {
        let container = Container()
        let gates = Gates(count: 2)
        container.cachedThing.register { Thing(id: gates.passNext()) }
        let results = Locked<[Int: Thing]>([:])
        let done = DispatchGroup()
        func resolve(on slot: Int) {
            Self.resolve(slot, into: results, done: done) { container.cachedThing() }
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
        #expect(gates.calls.value == 2)
        #expect(kept.id == 1)
        #expect(results.current[0]?.id == 0)
        #expect(results.current[1].map(ObjectIdentifier.init) == ObjectIdentifier(kept))
        #expect(Set(seen.current) == [ObjectIdentifier(kept)])
    }

    /// Four creations stay in the table's list; twenty-four move to its index past eight.
    @Test(arguments: [4, 24])
    func creationsOfManyKeysEndInAnyOrderAndAResetCancelsOnlyItsOwn(count: Int) {
        let container = Container()
        let ids = Array(0..<count)
        let gates = Gates(count: ids.count)
        let calls = Counter()
        let started = Locked<Set<Int>>([])
        container.cachedThingPerID.register { id in
            calls.increment()
            // Only each value's first creation waits at its gate.
            if started.withLock({ $0.insert(id).inserted }) {
                gates.pass(id)
            }
            return Thing(id: id)
        }
        let thingGates = Gates(count: 1)
        container.cachedThing.register { Thing(id: 100 + thingGates.passNext()) }
        let results = Locked<[Int: Thing]>([:])
        let done = DispatchGroup()
        for id in ids {
            Self.resolve(id, into: results, done: done) { container.cachedThingPerID(id) }
        }
        Self.resolve(100, into: results, done: done) { container.cachedThing() }
        // `count` + 1 creations in flight in one table at once.
        for id in ids {
            #expect(gates.waitUntilStarted(id))
        }
        #expect(thingGates.waitUntilStarted(0))
        // Two more threads wait for the first and the last creation, found by key.
        for id in [0, count - 1] {
            Self.resolve(1000 + id, into: results, done: done) { container.cachedThingPerID(id) }
        }
        usleep(20_000)
        // Cancels the one creation of `cachedThing`, wherever it is in the list.
        container.cachedThing.reset(.scope)
        // Ended in a scrambled order: 0, 3, 2, 1 of four.
        for id in ids.sorted(by: { ($0 * 7) % count < ($1 * 7) % count }) {
            gates.release(id)
            usleep(5_000)
        }
        thingGates.release(0)
        #expect(done.wait(timeout: .now() + hangLimit) == .success)
        // Each parameter's creation was kept; the cancelled one was handed out, not kept.
        for id in ids {
            #expect(container.cachedThingPerID(id) === results.current[id])
        }
        #expect(calls.value == ids.count)
        for id in [0, count - 1] {
            #expect(results.current[1000 + id] === results.current[id])
        }
        let next = container.cachedThing()
        #expect(thingGates.calls.value == 2)
        #expect(results.current[100]?.id == 100)
        #expect(next.id == 101)
        // Nothing is left in flight: every key creates anew after a reset, and once.
        container.cachedThingPerID.reset(.scope)
        for id in ids {
            #expect(container.cachedThingPerID(id) !== results.current[id])
            #expect(container.cachedThingPerID(id).id == id)
        }
        #expect(calls.value == 2 * ids.count)
    }
}

extension Container {
    /// One instance per parameter value: a creation per value, in one table.
    fileprivate var cachedThingPerID: ParameterFactory<Int, Thing> {
        self { Thing(id: $0) }.cached.scopeOnParameters
    }
}
