import Depot
import Testing

/// Distinct types made at run time, for a container with thousands of factories: each number is
/// spelled in binary as nested `ManyZero<…>` / `ManyOne<…>`.
protocol ManyTag {}
enum ManyLeaf: ManyTag {}
enum ManyZero<Rest: ManyTag>: ManyTag {}
enum ManyOne<Rest: ManyTag>: ManyTag {}

/// The service of the tag `T`: whether a registered closure made it.
final class Many<T: ManyTag>: Sendable {
    let isRegistered: Bool
    init(isRegistered: Bool) { self.isRegistered = isRegistered }
}

extension ManyTag {
    static func factory(of container: Container, scope: Scope) -> Factory<Many<Self>> {
        // One key name for all: the factories differ by type alone, as a generic factory's do.
        // Built-in scopes by their modifiers, so that a plain container resolves them plainly.
        let factory = Factory(container, key: "many") { Many<Self>(isRegistered: false) }
        return scope === Scope.cached ? factory.cached : factory.unique
    }

    static func register(in container: Container, scope: Scope) {
        factory(of: container, scope: scope).register { Many<Self>(isRegistered: true) }
    }

    static func resolvesRegistered(in container: Container, scope: Scope) -> Bool {
        factory(of: container, scope: scope)().isRegistered
    }

    static func reset(in container: Container, scope: Scope) {
        factory(of: container, scope: scope).reset()
    }
}

/// The tag types 0..<count.
func manyTags(_ count: Int) -> [any ManyTag.Type] {
    func wrap<T: ManyTag>(_: T.Type, bit: Int) -> any ManyTag.Type {
        bit == 0 ? ManyZero<T>.self : ManyOne<T>.self
    }
    return (0..<count).map { number in
        var type: any ManyTag.Type = ManyLeaf.self
        var rest = number
        repeat {
            type = wrap(type, bit: rest & 1)
            rest >>= 1
        } while rest > 0
        return type
    }
}

/// A container's tables with thousands of keys: each registration is found, and no other, after
/// registrations come and go in between.
@Suite struct ManyFactoriesTests {
    @Test(arguments: [Scope.unique, Scope.cached])
    func eachOfThousandsOfFactoriesFindsItsOwnRegistration(scope: Scope) {
        let container = Container()
        let tags = manyTags(3_000)
        for (number, tag) in tags.enumerated() where number % 2 == 0 {
            tag.register(in: container, scope: scope)
        }
        for (number, tag) in tags.enumerated() {
            #expect(tag.resolvesRegistered(in: container, scope: scope) == (number % 2 == 0))
        }
        // A third of them forget their registration and instance; then a fifth register.
        for (number, tag) in tags.enumerated() where number % 3 == 0 {
            tag.reset(in: container, scope: scope)
        }
        for (number, tag) in tags.enumerated() where number % 5 == 0 {
            tag.register(in: container, scope: scope)
        }
        var mismatches = 0
        for (number, tag) in tags.enumerated() {
            let expected = (number % 2 == 0 && number % 3 != 0) || number % 5 == 0
            if tag.resolvesRegistered(in: container, scope: scope) != expected { mismatches += 1 }
        }
        #expect(mismatches == 0)
    }
}
