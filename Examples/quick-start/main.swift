// Declare a factory, inject it, override it: the three things every Depot user does first.
import Depot

protocol Greeter: Sendable {
    func greet(_ name: String) -> String
}

struct EnglishGreeter: Greeter {
    func greet(_ name: String) -> String { "Hello, \(name)!" }
}

struct PirateGreeter: Greeter {
    func greet(_ name: String) -> String { "Ahoy, \(name)!" }
}

// 1. Declare: a factory is a computed property in a container extension.
extension Container {
    var greeter: Factory<any Greeter> { self { EnglishGreeter() }.cached }
}

// 2. Inject: the property wrapper resolves from Container.shared when the object is made.
final class WelcomeScreen {
    @Injected(\.greeter) private var greeter

    func title(for name: String) -> String { greeter.greet(name) }
}

let live = WelcomeScreen().title(for: "Ada")
print("live:     \(live)")
precondition(live == "Hello, Ada!")

// 3. Override: register another implementation, as a test or a preview would.
Container.shared.greeter.register { PirateGreeter() }
let overridden = WelcomeScreen().title(for: "Ada")
print("override: \(overridden)")
precondition(overridden == "Ahoy, Ada!")

// A test gets its own container, so overrides never leak between tests.
Container.$shared.withValue(Container()) {
    let isolated = WelcomeScreen().title(for: "Ada")
    print("isolated: \(isolated)")
    precondition(isolated == "Hello, Ada!")
}

// Resetting forgets the override.
Container.shared.manager.reset()
precondition(WelcomeScreen().title(for: "Ada") == "Hello, Ada!")
print("quick-start: all checks passed")
