// The start-up of a Swinject app, moved to Depot: what its assemblies did runs in
// autoRegister(), and code not moved yet still resolves by type.
import Depot

final class Network: Sendable {}

protocol Animal: Sendable {
    var name: String { get }
}
struct Cat: Animal {
    let name: String
}

extension Container {
    var network: Factory<Network> { self { Network() }.singleton }
}
extension Container: AutoRegistering {
    public func autoRegister() {
        warmUp(\.network)
    }
}

extension Container: Resolving {}

// A factory's module needs nothing else: the extension is the assembly.
Container.shared.register(Animal.self) { Cat(name: "Mimi") }
let animal = Container.shared.resolve(Animal.self)
print("resolved by type: \(animal?.name ?? "nothing")")
precondition(animal?.name == "Mimi")

// autoRegister() ran before the first registration, so the singleton exists already.
let singletons = Container.shared.manager.cachedInstances()["singleton"] ?? []
print("made at start-up: \(singletons)")
precondition(singletons == ["network<Network>"])

// A type nobody registered resolves to nil, as Swinject's resolve does.
precondition(Container.shared.resolve(Cat.self) == nil)
print("swinject-migration: all checks passed")
