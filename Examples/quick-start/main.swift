import Depot

protocol Greeter: Sendable { func greet(_ name: String) -> String }
struct EnglishGreeter: Greeter { func greet(_ name: String) -> String { "Hello, \(name)!" } }
final class Counter: @unchecked Sendable { var n = 0 }

extension Container {
    var greeter: Factory<any Greeter> { self { EnglishGreeter() } }
    var counter: Factory<Counter> { self { Counter() }.cached }
    var uniq: Factory<Counter> { self { Counter() } }
}

let a = Container.shared.counter()
let b = Container.shared.counter()
precondition(a === b)
precondition(Container.shared.uniq() !== Container.shared.uniq())
print(Container.shared.greeter().greet("Depot"))
