import Depot
import Swinject

// graph10: root → A, B, C; A → D, E; B → E, F; C → F, G; D, E → H; F, G → I. H and I are
// graph-scoped (one each per resolution of the root); the others are unique.
final class GraphH: Sendable {}
final class GraphI: Sendable {}
final class GraphD: Sendable {
    let h: GraphH
    init(_ h: GraphH) { self.h = h }
}
final class GraphE: Sendable {
    let h: GraphH
    init(_ h: GraphH) { self.h = h }
}
final class GraphF: Sendable {
    let i: GraphI
    init(_ i: GraphI) { self.i = i }
}
final class GraphG: Sendable {
    let i: GraphI
    init(_ i: GraphI) { self.i = i }
}
final class GraphA: Sendable {
    let d: GraphD
    let e: GraphE
    init(_ d: GraphD, _ e: GraphE) { (self.d, self.e) = (d, e) }
}
final class GraphB: Sendable {
    let e: GraphE
    let f: GraphF
    init(_ e: GraphE, _ f: GraphF) { (self.e, self.f) = (e, f) }
}
final class GraphC: Sendable {
    let f: GraphF
    let g: GraphG
    init(_ f: GraphF, _ g: GraphG) { (self.f, self.g) = (f, g) }
}
final class GraphRoot: Sendable {
    let a: GraphA
    let b: GraphB
    let c: GraphC
    init(_ a: GraphA, _ b: GraphB, _ c: GraphC) { (self.a, self.b, self.c) = (a, b, c) }
}

extension Depot.Container {
    var graphRoot: Factory<GraphRoot> {
        self { GraphRoot(self.graphA(), self.graphB(), self.graphC()) }
    }
    var graphA: Factory<GraphA> { self { GraphA(self.graphD(), self.graphE()) } }
    var graphB: Factory<GraphB> { self { GraphB(self.graphE(), self.graphF()) } }
    var graphC: Factory<GraphC> { self { GraphC(self.graphF(), self.graphG()) } }
    var graphD: Factory<GraphD> { self { GraphD(self.graphH()) } }
    var graphE: Factory<GraphE> { self { GraphE(self.graphH()) } }
    var graphF: Factory<GraphF> { self { GraphF(self.graphI()) } }
    var graphG: Factory<GraphG> { self { GraphG(self.graphI()) } }
    var graphH: Factory<GraphH> { self { GraphH() }.graph }
    var graphI: Factory<GraphI> { self { GraphI() }.graph }
}

extension Scenarios {
    static var graph: [Subject] {
        [
            Subject("graph10", "Depot") {
                let container = Depot.Container()
                let root = container.graphRoot()
                precondition(root.a.d.h === root.b.e.h && root.b.f.i === root.c.g.i)
                return { n in for _ in 0..<n { blackHole(container.graphRoot()) } }
            },
            Subject("graph10", "Swinject", note: "transient, H and I in ObjectScope.graph") {
                let resolver = swinjectGraph()
                let root = resolver.resolve(GraphRoot.self)
                precondition(root.a.d.h === root.b.e.h)
                return { n in for _ in 0..<n { blackHole(resolver.resolve(GraphRoot.self)) } }
            },
            Subject("graph10", "baseline-direct", note: "the same twelve objects built by hand") {
                { n in for _ in 0..<n { blackHole(buildGraph()) } }
            },
        ]
    }

    private static func swinjectGraph() -> SendableResolver {
        let swinject = SwinjectContainer()
        swinject.register(GraphRoot.self) { r in
            GraphRoot(r.resolve(GraphA.self)!, r.resolve(GraphB.self)!, r.resolve(GraphC.self)!)
        }.inObjectScope(.transient)
        swinject.register(GraphA.self) { r in
            GraphA(r.resolve(GraphD.self)!, r.resolve(GraphE.self)!)
        }
        .inObjectScope(.transient)
        swinject.register(GraphB.self) { r in
            GraphB(r.resolve(GraphE.self)!, r.resolve(GraphF.self)!)
        }
        .inObjectScope(.transient)
        swinject.register(GraphC.self) { r in
            GraphC(r.resolve(GraphF.self)!, r.resolve(GraphG.self)!)
        }
        .inObjectScope(.transient)
        swinject.register(GraphD.self) { r in GraphD(r.resolve(GraphH.self)!) }.inObjectScope(
            .transient)
        swinject.register(GraphE.self) { r in GraphE(r.resolve(GraphH.self)!) }.inObjectScope(
            .transient)
        swinject.register(GraphF.self) { r in GraphF(r.resolve(GraphI.self)!) }.inObjectScope(
            .transient)
        swinject.register(GraphG.self) { r in GraphG(r.resolve(GraphI.self)!) }.inObjectScope(
            .transient)
        swinject.register(GraphH.self) { _ in GraphH() }.inObjectScope(.graph)
        swinject.register(GraphI.self) { _ in GraphI() }.inObjectScope(.graph)
        return SendableResolver(swinject.synchronize())
    }

    @inline(never)
    static func buildGraph() -> GraphRoot {
        let h = GraphH()
        let i = GraphI()
        return GraphRoot(
            GraphA(GraphD(h), GraphE(h)), GraphB(GraphE(h), GraphF(i)), GraphC(GraphF(i), GraphG(i))
        )
    }
}
