// Every lifetime Depot has: when it makes an instance, and what releases or resets it. Each line
// prints two instances' numbers and whether they are the same object.
import Depot
import Foundation

/// Numbered in creation order, so the output shows which instance is which.
final class Thing: @unchecked Sendable {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var created = 0
    let id: Int
    init() {
        id = Thing.lock.withLock {
            Thing.created += 1
            return Thing.created
        }
    }
}

/// Two graph-scoped dependencies and a lazy one, resolved in one graph.
final class Screen: @unchecked Sendable {
    let left: Thing
    let right: Thing
    let later: Lazy<Thing>
    init(left: Thing, right: Thing, later: Lazy<Thing>) {
        (self.left, self.right, self.later) = (left, right, later)
    }
}

/// DITranquillity's custom storage example: every value serves three requests.
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

extension Scope {
    static let everyThird = Scope.Custom(name: "every third") { EveryThirdStorage() }
}
extension Scope {
    static let session = Scope.Custom(name: "session")
}

extension Container {
    var unique: Factory<Thing> { self { Thing() } }
    var cached: Factory<Thing> { self { Thing() }.cached }
    var shared: Factory<Thing> { self { Thing() }.shared }
    var singleton: Factory<Thing> { self { Thing() }.singleton }
    var weakSingleton: Factory<Thing> { self { Thing() }.weakSingleton }
    var session: Factory<Thing> { self { Thing() }.scope(.session) }
    var everyThird: Factory<Thing> { self { Thing() }.scope(.everyThird) }
    var token: Factory<Thing> { self { Thing() }.cached.timeToLive(60) }
    var graphThing: Factory<Thing> { self { Thing() }.graph }
    var screen: Factory<Screen> {
        self {
            Screen(left: self.graphThing(), right: self.graphThing(), later: self.graphThing.lazy)
        }
    }
}

@discardableResult
func show(_ label: String, _ a: Thing, _ b: Thing, same expected: Bool) -> Bool {
    let same = a === b
    print(
        "\(label.padding(toLength: 26, withPad: " ", startingAt: 0)) #\(a.id) #\(b.id) \(same ? "same" : "different")"
    )
    precondition(
        same == expected, "\(label): expected \(expected ? "the same" : "different") instances")
    return same
}

let container = Container()
print("-- unique: a new instance per resolve")
show("unique", container.unique(), container.unique(), same: false)

print("-- cached: one per container until reset")
let cached = container.cached()
show("cached", cached, container.cached(), same: true)
show("cached, other container", cached, Container().cached(), same: false)
container.manager.reset(scope: .cached)
show("cached after reset", cached, container.cached(), same: false)

print("-- shared: one per container while someone holds it")
var held: Thing? = container.shared()
show("shared while held", held!, container.shared(), same: true)
weak let weakShared = held
held = nil
precondition(weakShared == nil)
print("shared released when its last owner let go")

print("-- singleton: one per process until reset")
let singleton = container.singleton()
show("singleton, other container", singleton, Container().singleton(), same: true)
Scope.singleton.reset()
show("singleton after reset", singleton, container.singleton(), same: false)

print("-- weak singleton: one per process while someone holds it")
var weakHeld: Thing? = container.weakSingleton()
show("weak singleton, other", weakHeld!, Container().weakSingleton(), same: true)
weak let weakSingleton = weakHeld
weakHeld = nil
precondition(weakSingleton == nil)
print("weak singleton released when its last owner let go")

print("-- graph: one per resolution graph; a Lazy made in it joins it")
let screen = container.screen()
show("graph, same resolve", screen.left, screen.right, same: true)
show("graph, lazy later", screen.left, screen.later.value, same: true)
show("graph, next resolve", screen.left, container.screen().left, same: false)

print("-- custom storage: a session scope, cleared at logout")
let session = container.session()
show("session", session, container.session(), same: true)
Scope.session.reset()
show("session after logout", session, container.session(), same: false)

print("-- custom storage: every third request gets a new object")
let thirds = (0..<4).map { _ in container.everyThird() }
show("every third, 1st and 3rd", thirds[0], thirds[2], same: true)
show("every third, 3rd and 4th", thirds[2], thirds[3], same: false)

print("-- time to live: replaced once older than the limit")
let now = NSLock()
nonisolated(unsafe) var seconds = 0.0
container.manager.clock = ContainerManager.Clock { now.withLock { seconds } }
let token = container.token()
now.withLock { seconds = 59 }
show("token at 59 s", token, container.token(), same: true)
now.withLock { seconds = 60 }
show("token at 60 s", token, container.token(), same: false)

print("-- lifetime scopes, shared scopes and children")
let request = container.newLifetimeScope()
show("lifetime scope", container.cached(), request.cached(), same: false)
let mirror = Container()
mirror.useScope(from: container)
show("useScope(from:)", container.cached(), mirror.cached(), same: true)
let child = container.makeChild()
show("child, parent's cache", container.cached(), child.cached(), same: true)
child.cached.register { Thing() }
show("child's own registration", container.cached(), child.cached(), same: false)
child.manager.reset()
show("child reset, parent kept", container.cached(), child.cached(), same: true)

print("-- warm-up: made now, in order")
let warm = Container()
warm.warmUp(\.cached, \.singleton)
let warmed = warm.cached()
show("warmed up", warmed, warm.cached(), same: true)
print("lifetimes-tour: all checks passed")
