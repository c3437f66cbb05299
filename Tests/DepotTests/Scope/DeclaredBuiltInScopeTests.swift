import Depot
import Testing

// FactoryKit's spelling of the built-in scopes in a declaration: `.scope(.cached)` for `.cached`.
extension Container {
    fileprivate var scopedCachedThing: Factory<Thing> { self { Thing() }.scope(.cached) }
    fileprivate var scopedSingletonThing: Factory<Thing> { self { Thing() }.scope(.singleton) }
    fileprivate var scopedUniqueThing: Factory<Thing> { self { Thing() }.scope(.unique) }
    fileprivate var scopedGraphThing: Factory<Thing> { self { Thing() }.scope(.graph) }
    fileprivate var scopedGraphPair: Factory<(Thing, Thing)> {
        self { (self.scopedGraphThing(), self.scopedGraphThing()) }
    }
    /// A per-container cache of its own, which is not `.cached`.
    fileprivate var ownCachedThing: Factory<Thing> {
        self { Thing() }.scope(DeclaredBuiltInScopeTests.ownCache)
    }
}

@Suite struct DeclaredBuiltInScopeTests {
    static let ownCache = Scope.Cached()

    @Test func scopeCachedKeepsOneInstanceAContainerUntilItsScopeIsReset() {
        let container = Container()
        let other = Container()
        let first = container.scopedCachedThing()
        let own = container.ownCachedThing()
        #expect(container.scopedCachedThing() === first)
        #expect(other.scopedCachedThing() !== first)
        container.manager.reset(scope: .cached)
        #expect(container.scopedCachedThing() !== first)
        // A `Scope.Cached()` of its own is another scope: `.cached`'s reset leaves it alone.
        #expect(container.ownCachedThing() === own)
    }

    @Test func scopeSingletonIsSharedAcrossContainersAndIsolatedInAClone() {
        Scope.withIsolatedSingletons {
            let first = Container().scopedSingletonThing()
            #expect(Container().scopedSingletonThing() === first)
            #expect(Container().singletonThing() !== first)
            Scope.withIsolatedSingletons {
                #expect(Container().scopedSingletonThing() !== first)
            }
            Scope.singleton.reset()
            #expect(Container().scopedSingletonThing() !== first)
        }
    }

    @Test func scopeUniqueAndGraphMakeWhatTheirModifiersMake() {
        let container = Container()
        #expect(container.scopedUniqueThing() !== container.scopedUniqueThing())
        let pair = container.scopedGraphPair()
        #expect(pair.0 === pair.1)
        #expect(container.scopedGraphPair().0 !== pair.0)
    }

    @Test func aRegistrationOverAScopeCachedDeclarationIsKeptInItsScope() {
        let container = Container()
        container.scopedCachedThing.register { Thing(id: 7) }
        let registered = container.scopedCachedThing()
        #expect(registered.id == 7)
        #expect(container.scopedCachedThing() === registered)
    }
}
