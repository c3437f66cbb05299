import Foundation
import Testing

@testable import Depot

/// A table that a burst of keys grew, then a sweep or reset emptied, gives its room back: the
/// slots of a per-parameter cache follow the instances it keeps, not its peak.
@Suite struct HashTableTests {
    @Test func aTableLeftMostlyEmptyShrinksAndKeepsWhatRemains() {
        let objects = (0..<4_096).map { _ in NSObject() }
        var table = HashTable<ObjectIdentifier, Int>()
        for (index, object) in objects.enumerated() {
            table.insert(index, forKey: ObjectIdentifier(object))
        }
        #expect(table.capacity >= 4_096 * 4 / 3)
        let removed = table.remove { $0.value >= 10 }
        #expect(removed.count == 4_086)
        #expect(table.capacity <= 64)
        #expect((0..<10).allSatisfy { table[ObjectIdentifier(objects[$0])] == $0 })
        #expect(table[ObjectIdentifier(objects[10])] == nil)
    }

    /// A small table keeps its slots, so that a table emptied and filled again in turn (a
    /// lifetime scope's, reset at its end) does not allocate each time.
    @Test func aSmallTableKeepsItsSlots() {
        let objects = (0..<40).map { _ in NSObject() }
        var table = HashTable<ObjectIdentifier, Int>()
        for (index, object) in objects.enumerated() {
            table.insert(index, forKey: ObjectIdentifier(object))
        }
        let capacity = table.capacity
        _ = table.remove { _ in true }
        #expect(table.isEmpty)
        #expect(table.capacity == capacity)
    }

    /// The expiry sweep of a per-parameter cache after a burst: the container's table shrinks
    /// with the instances it keeps.
    @Test func aContainersTableShrinksAfterABurstOfParametersExpires() {
        let container = Container()
        let now = Locked(0.0)
        container.manager.clock = ContainerManager.Clock { now.current }
        let token = ParameterFactory(container) { (id: Int) in Thing(id: id) }.cached
            .scopeOnParameters.timeToLive(1)
        for id in 0..<5_000 { _ = token(id) }
        let peak = container.manager.state.withLock { $0.instances.slots.capacity }
        // Then a trickle, a hundred live at a time: the burst expires, and is swept once the
        // cells kept since its last sweep have doubled.
        for id in 5_000..<10_000 {
            now.withLock { $0 += 0.01 }
            _ = token(id)
        }
        let after = container.manager.state.withLock { $0.instances.slots.capacity }
        #expect(peak >= 5_000)
        #expect(after <= 1_024, "\(after) slots after the burst, \(peak) at its peak")
    }
}
