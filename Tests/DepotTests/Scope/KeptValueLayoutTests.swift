import Testing

@testable import Depot

private protocol LayoutShape { var sides: Int { get } }
private protocol LayoutNode: AnyObject { var name: String { get } }
private class LayoutBase: LayoutNode {
    var name: String { "base" }
}
private final class LayoutDerived: LayoutBase {
    override var name: String { "derived" }
}
private struct LayoutSquare: LayoutShape {
    let sides = 4
    let padding = (1, 2, 3, 4, 5)
}

private final class LayoutCounter: @unchecked Sendable {
    var count = 0
}

extension Container {
    fileprivate var layoutCounter: Factory<LayoutCounter> { self { LayoutCounter() }.cached }
    fileprivate var keptBase: Factory<LayoutBase> {
        self {
            self.layoutCounter().count += 1
            return LayoutDerived()
        }
        .cached
    }
    fileprivate var keptObject: Factory<AnyObject> { self { LayoutDerived() }.cached }
    fileprivate var keptNode: Factory<any LayoutNode> { self { LayoutDerived() }.cached }
    fileprivate var keptShape: Factory<any LayoutShape> { self { LayoutSquare() }.cached }
    fileprivate var keptSquare: Factory<LayoutSquare> { self { LayoutSquare() }.singleton }
    fileprivate var keptNumber: Factory<Int> {
        self {
            self.layoutCounter().count += 1
            return self.layoutCounter().count * 10
        }
        .cached
    }
    fileprivate var keptClosure: Factory<@Sendable () -> Int> { self { { 42 } }.cached }
    fileprivate var keptOptional: Factory<LayoutBase?> { self { LayoutDerived() }.cached }
    fileprivate var graphNode: Factory<any LayoutNode> { self { LayoutDerived() }.graph }
    fileprivate var graphPair: Factory<(any LayoutNode, any LayoutNode, LayoutBase, LayoutBase)> {
        self { (self.graphNode(), self.graphNode(), self.graphBase(), self.graphBase()) }
    }
    fileprivate var graphBase: Factory<LayoutBase> { self { LayoutDerived() }.graph }
}

/// A kept instance is read back as the type its factory declares, whatever its layout: a class
/// reference (kept in a cell for objects), an `AnyObject`, a class-bound existential (two words:
/// a reference and a witness table), an existential of a value, a large struct, an `Int`, a
/// closure and an optional class. A cell read with the wrong layout would crash or give garbage.
@Suite struct KeptValueLayoutTests {
    @Test func aClassReferenceIsKeptOnceAndReadBackAsItsDeclaredClass() {
        let container = Container()
        let first = container.keptBase()
        let second = container.keptBase()
        #expect(ObjectIdentifier(first) == ObjectIdentifier(second))
        #expect(second.name == "derived")
        #expect(container.layoutCounter().count == 1)
    }

    @Test func anAnyObjectAndAClassBoundExistentialAreReadBackWhole() {
        let container = Container()
        let object = container.keptObject()
        #expect(ObjectIdentifier(object) == ObjectIdentifier(container.keptObject()))
        let node = container.keptNode()
        let again = container.keptNode()
        #expect(ObjectIdentifier(node) == ObjectIdentifier(again))
        // The witness table travels with the reference: the call reaches LayoutDerived's `name`.
        #expect(again.name == "derived")
    }

    @Test func valuesOfEveryLayoutAreKeptAndReadBack() {
        let container = Container()
        #expect(container.keptShape().sides == 4)
        #expect(container.keptShape().sides == 4)
        #expect(container.keptSquare().padding.4 == 5)
        #expect(container.keptSquare().padding.0 == 1)
        #expect(container.keptNumber() == 10)
        #expect(container.keptNumber() == 10)
        #expect(container.layoutCounter().count == 1)
        #expect(container.keptClosure()() == 42)
        #expect(container.keptClosure()() == 42)
        let optional = container.keptOptional()
        #expect(optional?.name == "derived")
        let again = container.keptOptional()
        #expect(optional.map(ObjectIdentifier.init) == again.map(ObjectIdentifier.init))
    }

    @Test func aGraphKeepsOneInstanceOfEachLayoutPerResolve() {
        let container = Container()
        let (first, second, base, sameBase) = container.graphPair()
        #expect(ObjectIdentifier(first) == ObjectIdentifier(second))
        #expect(second.name == "derived")
        #expect(ObjectIdentifier(base) == ObjectIdentifier(sameBase))
        let (next, _, nextBase, _) = container.graphPair()
        #expect(ObjectIdentifier(next) != ObjectIdentifier(first))
        #expect(ObjectIdentifier(nextBase) != ObjectIdentifier(base))
    }
}
