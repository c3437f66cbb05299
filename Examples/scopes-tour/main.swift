// Every built-in scope: when it makes an instance, and what resets it.
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

final class Pair {
    let left: Thing, right: Thing
    init(left: Thing, right: Thing) { (self.left, self.right) = (left, right) }
}

extension Scope { static let session = Scope.Cached() }

extension Container {
    var unique: Factory<Thing> { self { Thing() } }
    var cached: Factory<Thing> { self { Thing() }.cached }
    var shared: Factory<Thing> { self { Thing() }.shared }
    var singleton: Factory<Thing> { self { Thing() }.singleton }
    var session: Factory<Thing> { self { Thing() }.scope(.session) }
    var graphThing: Factory<Thing> { self { Thing() }.graph }
    var pair: Factory<Pair> { self { Pair(left: self.graphThing(), right: self.graphThing()) } }
}

func show(_ label: String, _ a: Thing, _ b: Thing) -> Bool {
    print("\(label.padding(12)) #\(a.id) #\(b.id) \(a === b ? "same" : "different")")
    return a === b
}

extension String {
    func padding(_ width: Int) -> String {
        self + String(repeating: " ", count: max(0, width - count))
    }
}

let container = Container()
precondition(!show("unique", container.unique(), container.unique()))
precondition(show("cached", container.cached(), container.cached()))
let beforeReset = container.cached()
container.manager.reset(scope: .cached)
precondition(!show("cached reset", beforeReset, container.cached()))

var held: Thing? = container.shared()
precondition(show("shared", held!, container.shared()))
let heldID = held!.id
held = nil
precondition(container.shared().id != heldID, "released once nobody holds it")
print("shared       released once nobody held it")

precondition(show("singleton", container.singleton(), Container().singleton()))
precondition(show("session", container.session(), container.session()))
let session = container.session()
Scope.session.reset()
precondition(!show("session out", session, container.session()))

let pair = container.pair()
precondition(show("graph", pair.left, pair.right))
precondition(!show("next graph", pair.left, container.pair().left))
print("scopes-tour: all checks passed")
