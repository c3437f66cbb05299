import Foundation
import Testing

@testable import Depot

/// A parameter type of classes, equal by `id` whatever their subclass.
class ParameterAnimal: Hashable, @unchecked Sendable {
    let id: Int

    init(id: Int) { self.id = id }

    static func == (lhs: ParameterAnimal, rhs: ParameterAnimal) -> Bool { lhs.id == rhs.id }

    func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

final class ParameterDog: ParameterAnimal, @unchecked Sendable {}

final class ParameterCat: ParameterAnimal, @unchecked Sendable {}

extension Container {
    var thingPerAnimal: ParameterFactory<ParameterAnimal, Thing> {
        self { Thing(id: $0.id) }.cached.scopeOnParameters
    }
}

/// A factory's instances kept per parameter value, in a dictionary of the parameter's type.
@Suite struct ParameterRunTests {
    /// Parameters are compared as the declared parameter type, as a `Dictionary` of it would
    /// compare them, not as the subclass each value happens to be.
    @Test func parametersEqualAsTheParameterTypeShareAnInstance() {
        let container = Container()
        let dog = container.thingPerAnimal(ParameterDog(id: 1))
        #expect(container.thingPerAnimal(ParameterCat(id: 1)) === dog)
        #expect(container.thingPerAnimal(ParameterAnimal(id: 1)) === dog)
        #expect(container.thingPerAnimal(ParameterDog(id: 2)) !== dog)
    }

    /// `push()`'s snapshot shares the instances kept per parameter until the container changes
    /// them: what is made after `push()` is gone after `pop()`, and what was kept is back.
    @Test func popForgetsTheParametersMadeSinceItsPush() {
        let container = Container()
        let one = container.thingPerID(1)
        container.manager.push()
        let three = container.thingPerID(3)
        #expect(container.thingPerID(1) === one)
        container.manager.pop()
        #expect(container.thingPerID(1) === one)
        #expect(container.thingPerID(3) !== three)
        #expect(container.manager.cachedInstances()["cached"]?.count == 2)
    }

    /// Eight threads resolving the same values of a type whose values all hash alike, in
    /// turns that differ: each value's closure runs once, and every thread gets its instance.
    @Test func threadsResolvingTheSameParametersMakeEachValueOnce() {
        let container = Container()
        let made = Counter()
        let factory = ParameterFactory(container) { (key: ConstantHash) -> Thing in
            made.increment()
            return Thing(id: key.id)
        }.cached.scopeOnParameters
        let keys = (0..<300).map(ConstantHash.init)
        let seen = Locked([Int: ObjectIdentifier]())
        let agreed = Counter()
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in keys.indices {
                let key = keys[(index * (thread + 1)) % keys.count]
                let thing = factory(key)
                guard thing.id == key.id else { continue }
                let mine = ObjectIdentifier(thing)
                let first = seen.withLock { firsts in
                    if let first = firsts[key.id] { return first }
                    firsts[key.id] = mine
                    return mine
                }
                if first == mine { agreed.increment() }
            }
        }
        #expect(made.value == keys.count)
        #expect(agreed.value == 8 * keys.count)
    }

    /// Resetting the scope forgets every parameter's instance, and a parameter made again is
    /// kept again.
    @Test func aResetForgetsEveryParametersInstance() {
        let container = Container()
        let things = (0..<100).map { container.thingPerID($0) }
        container.manager.reset(scope: .cached)
        let again = (0..<100).map { container.thingPerID($0) }
        #expect(zip(things, again).allSatisfy { $0 !== $1 })
        #expect((0..<100).allSatisfy { container.thingPerID($0) === again[$0] })
    }
}
