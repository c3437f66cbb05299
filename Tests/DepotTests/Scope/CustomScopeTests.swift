import Depot
import Foundation
import Testing

/// DITranquillity's "every third object is new" storage, in Depot's names: each value serves
/// three requests, then the storage answers `nil` and Depot creates a new one.
final class EveryThirdStorage: ScopeStorage {
    private var cache: [ScopeKey: (value: Any, count: Int)] = [:]

    func value(for key: ScopeKey) -> Any? {
        guard let (value, count) = cache[key] else { return nil }
        cache[key] = (value, count + 1)
        return count < 3 ? value : nil
    }

    func setValue(_ value: Any, for key: ScopeKey) { cache[key] = (value, 1) }
    func removeAll() { cache.removeAll() }
}

/// A storage that records what Depot asks of it, with no locking of its own: any call from two
/// threads at once is a data race that ThreadSanitizer reports.
final class RecordingStorage: ScopeStorage {
    private var values: [ScopeKey: Any] = [:]
    private(set) var keys: [String] = []
    private(set) var removals = 0

    func value(for key: ScopeKey) -> Any? {
        keys.append(key.description)
        return values[key]
    }

    func setValue(_ value: Any, for key: ScopeKey) { values[key] = value }

    func removeAll() {
        removals += 1
        values.removeAll()
    }
}

extension Scope {
    static let everyThird = Scope.Custom(name: "every third") { EveryThirdStorage() }
}

@Suite struct CustomScopeTests {
    @Test func everyThirdRequestGetsANewObject() {
        let container = Container()
        let cat = container.uniqueThing.scope(.everyThird)
        // Held, so no address is reused for a new instance.
        let cats = (0..<9).map { _ in cat() }
        #expect(cats[0] === cats[1] && cats[1] === cats[2])
        #expect(cats[3] === cats[4] && cats[4] === cats[5])
        #expect(cats[6] === cats[7] && cats[7] === cats[8])
        #expect(Set(cats.map(ObjectIdentifier.init)).count == 3)
    }

    @Test func defaultStorageKeepsOneInstancePerContainerUntilReset() {
        let scope = Scope.Custom(name: "session")
        let first = Container()
        let second = Container()
        let cart = first.uniqueThing.scope(scope)
        let otherCart = second.uniqueThing.scope(scope)
        let kept = cart()
        #expect(cart() === kept)
        #expect(otherCart() !== kept)
        #expect(otherCart() === otherCart())
    }

    @Test func sessionScopeIsClearedAtLogoutInEveryContainer() {
        let session = Scope.Custom(name: "session", reference: .strong, placement: .container)
        let first = Container()
        let second = Container()
        let user = first.uniqueThing.scope(session)
        let otherUser = second.uniqueThing.scope(session)
        let cached = first.cachedThing()
        let (before, otherBefore) = (user(), otherUser())
        session.reset()  // logout
        #expect(user() !== before)
        #expect(otherUser() !== otherBefore)
        #expect(first.cachedThing() === cached)
    }

    @Test func managerResetOfACustomScopeClearsOneContainer() {
        let session = Scope.Custom(name: "session")
        let first = Container()
        let second = Container()
        let user = first.uniqueThing.scope(session)
        let otherUser = second.uniqueThing.scope(session)
        let (before, otherBefore) = (user(), otherUser())
        first.manager.reset(scope: session)
        #expect(user() !== before)
        #expect(otherUser() === otherBefore)
    }

    @Test func resetCallsTheStoragesRemoveAll() {
        let storage = Locked<RecordingStorage?>(nil)
        let scope = Scope.Custom(name: "recorded") {
            let made = RecordingStorage()
            storage.withLock { $0 = made }
            return made
        }
        let container = Container()
        let thing = container.uniqueThing.scope(scope)
        let first = thing()
        #expect(thing() === first)
        scope.reset()
        #expect(storage.current?.removals == 1)
        #expect(thing() !== first)
        #expect(storage.current?.keys.last == "Container.uniqueThing<Thing>")
    }

    @Test func processPlacementSharesOneStorageAcrossContainersOfAType() {
        Scope.withIsolatedSingletons {
            let scope = Scope.Custom(name: "per run", placement: .process)
            let first = Container().uniqueThing.scope(scope)
            let second = Container().uniqueThing.scope(scope)
            let other = ServiceContainer().thing.scope(scope)
            #expect(first() === second())
            #expect(other() !== first())
            let kept = first()
            scope.reset()
            #expect(second() !== kept)
        }
    }

    @Test func weakReferenceReleasesWhenNobodyHoldsTheInstance() {
        let scope = Scope.Custom(name: "weak", reference: .weak)
        let container = Container()
        let thing = container.uniqueThing.scope(scope)
        var held: Thing? = thing()
        weak let released = held
        #expect(thing() === held)
        held = nil
        #expect(released == nil)
        let next = thing()
        #expect(next === thing())
    }

    @Test func weakReferenceToAValueTypeBehavesAsUnique() {
        let logged = Locked<[String]>([])
        let container = Container()
        container.manager.logger = { line in logged.withLock { $0.append(line) } }
        let scope = Scope.Custom(name: "weak values", reference: .weak)
        let counter = Counter()
        let value = container.sharedValue.scope(scope).register {
            counter.increment()
            return ValueThing(id: counter.value)
        }
        #expect(value() != value())
        #expect(counter.value == 2)
        if FactoryContext.current.isDebug {
            #expect(logged.current.count == 1)
            #expect(logged.current.first?.contains("value type") == true)
        }
    }

    @Test func factoryResetAndRegistrationReachCustomStorages() {
        let scope = Scope.Custom(name: "session")
        let container = Container()
        let thing = container.uniqueThing.scope(scope)
        let first = thing()
        thing.reset(.scope)
        let second = thing()
        #expect(second !== first)
        #expect(thing() === second)
        container.uniqueThing.register { Thing(id: 9) }.scope(scope)
        #expect(thing().id == 9)
    }

    @Test func timeToLiveAppliesToCustomScopes() {
        let now = Locked(0.0)
        let container = Container()
        container.manager.clock = ContainerManager.Clock { now.current }
        let thing = container.uniqueThing.scope(Scope.Custom(name: "ttl")).timeToLive(10)
        let first = thing()
        now.withLock { $0 = 9 }
        #expect(thing() === first)
        now.withLock { $0 = 10 }
        #expect(thing() !== first)
    }

    @Test func scopeOnParametersKeepsOneValuePerParameterInTheStorage() {
        let container = Container()
        let user = container.thingWithID.scope(Scope.Custom(name: "users")).scopeOnParameters
        #expect(user(1) === user(1))
        #expect(user(2) !== user(1))
        #expect(user(2).id == 2)
    }

    @Test func popEmptiesCustomStorages() {
        let scope = Scope.Custom(name: "session")
        let container = Container()
        let thing = container.uniqueThing.scope(scope)
        container.manager.push()
        let during = thing()
        container.manager.pop()
        #expect(thing() !== during)
    }

    @Test func scopeKeysTellFactoriesAndParametersApart() {
        let storage = Locked<RecordingStorage?>(nil)
        let scope = Scope.Custom(name: "keys") {
            let made = RecordingStorage()
            storage.withLock { $0 = made }
            return made
        }
        let container = Container()
        _ = container.uniqueThing.scope(scope)()
        _ = container.thingWithID.scope(scope).scopeOnParameters(3)
        #expect(storage.current?.keys == [])  // nothing stored yet: Depot asks only for its own
        _ = container.uniqueThing.scope(scope)()
        _ = container.thingWithID.scope(scope).scopeOnParameters(3)
        #expect(
            storage.current?.keys == [
                "Container.uniqueThing<Thing>", "Container.thingWithID<Thing>",
            ])
    }

    // The storage has no lock: under ThreadSanitizer (in CI) any call Depot made outside its
    // own lock would be reported.
    @Test func storageIsCalledOnlyUnderDepotsLockAndEachKeyIsCreatedOnce() {
        let scope = Scope.Custom(name: "unlocked") { RecordingStorage() }
        let container = Container()
        let calls = Locked([Int: Int]())
        let user = container.thingWithID.scope(scope).scopeOnParameters
        user.register { id in
            calls.withLock { $0[id, default: 0] += 1 }
            return Thing(id: id)
        }
        let seen = runOnThreads(32) { index in
            (0..<200).map { round in user((index + round) % 8) }
        }
        #expect(calls.current == Dictionary(uniqueKeysWithValues: (0..<8).map { ($0, 1) }))
        #expect(Set(seen.joined().map(ObjectIdentifier.init)).count == 8)
    }

    @Test func everyThirdStorageUnderContentionServesEachValueThreeTimes() {
        let container = Container()
        let counter = Counter()
        let cat = container.uniqueThing.scope(.everyThird).register {
            counter.increment()
            return Thing()
        }
        // Held, so no address is reused for a new instance.
        let seen = runOnThreads(16) { _ in (0..<30).map { _ in cat() } }
        let uses = Dictionary(grouping: seen.joined(), by: ObjectIdentifier.init).mapValues(\.count)
        #expect(counter.value == 160)
        #expect(uses.values.allSatisfy { $0 == 3 })
    }
}
