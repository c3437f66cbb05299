import Depot
import Testing

/// One graph-scoped factory of each kind of type, each resolved twice in one resolution, once
/// of them through a `Provider` made in it (which shares the resolution's graph).
struct GraphKinds: @unchecked Sendable {
    let things: [Thing?]
    let services: [any Service]
    let objects: [AnyObject]
    let optionals: [Thing?]
}

extension Container {
    fileprivate var graphOptionalThing: Factory<Thing?> { self { Thing(id: 2) }.graph }
    fileprivate var graphService: Factory<any Service> { self { MockService() }.graph }
    fileprivate var graphObject: Factory<AnyObject> { self { Thing(id: 3) }.graph }
    fileprivate var graphKinds: Factory<GraphKinds> {
        self {
            let (thing, service, object, optional) = (
                self.graphThing(), self.graphService(), self.graphObject(),
                self.graphOptionalThing()
            )
            let provider = self.graphService.provider
            return GraphKinds(
                things: [thing, self.graphThing()], services: [service, provider()],
                objects: [object, self.graphObject()],
                optionals: [optional, self.graphOptionalThing()])
        }
    }
    fileprivate var numberedGraphThing: ParameterFactory<Int, Thing> {
        self { Thing(id: $0) }.graph.scopeOnParameters
    }
    fileprivate var uniqueThings: Factory<[Thing]> {
        self { (0..<40).map { self.numberedGraphThing($0) } }
    }
}

/// Graph-scoped instances of every kind of type, and more of them in one resolution than its
/// short list keeps.
@Suite struct GraphScopeKindsTests {
    @Test func manyGraphInstancesInOneResolutionStayOnePerKey() {
        // More graph-scoped instances than a resolution keeps in its short list: the rest are
        // found by key just the same, and none outlives the resolution.
        let container = Container()
        let thing = container.numberedGraphThing
        let first = container.uniqueThings.register {
            let made = (0..<40).map { thing($0) }
            #expect((0..<40).allSatisfy { thing($0) === made[$0] })
            #expect(Set(made.map(ObjectIdentifier.init)).count == 40)
            return made
        }()
        let second = container.uniqueThings()
        #expect(zip(first, second).allSatisfy { $0 !== $1 })
        #expect(first.map(\.id) == Array(0..<40))
    }

    @Test func graphInstancesOfClassesExistentialsAndOptionalsAreOnePerResolution() {
        let container = Container()
        let first = container.graphKinds()
        let second = container.graphKinds()
        for kinds in [first, second] {
            #expect(kinds.things[0] === kinds.things[1])
            #expect(kinds.services[0] === kinds.services[1])
            // Compared by identifier: `===` on `AnyObject`s inside #expect crashes Swift 6.3's
            // SIL generation.
            #expect(ObjectIdentifier(kinds.objects[0]) == ObjectIdentifier(kinds.objects[1]))
            #expect(kinds.optionals[0] === kinds.optionals[1])
            #expect(kinds.optionals[0]?.id == 2)
            #expect((kinds.objects[0] as? Thing)?.id == 3)
        }
        #expect(first.things[0] !== second.things[0])
        #expect(first.services[0] !== second.services[0])
        #expect(ObjectIdentifier(first.objects[0]) != ObjectIdentifier(second.objects[0]))
        #expect(first.optionals[0] !== second.optionals[0])
    }
}
