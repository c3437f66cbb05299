import Depot
import Foundation

// async-cached-hit: an AsyncFactory's cached hit against the same synchronous hit, both timed in
// a task. async-graph10: graph10's shape with async factories (H and I graph-scoped), against the
// same objects built by hand through async functions.
extension Depot.Container {
    var asyncCachedService: AsyncFactory<Service> { self { Service() }.cached }
    /// `asyncCachedService` behind a protocol: an alias of it.
    var asyncIdentifiedService: AsyncFactory<any Identified> {
        alias(\.asyncCachedService) { $0 }
    }
    var asyncUniqueService: AsyncFactory<Service> { self { Service() } }
    var asyncGraphRoot: AsyncFactory<GraphRoot> {
        self {
            GraphRoot(
                try await self.asyncGraphA(), try await self.asyncGraphB(),
                try await self.asyncGraphC())
        }
    }
    var asyncGraphA: AsyncFactory<GraphA> {
        self { GraphA(try await self.asyncGraphD(), try await self.asyncGraphE()) }
    }
    var asyncGraphB: AsyncFactory<GraphB> {
        self { GraphB(try await self.asyncGraphE(), try await self.asyncGraphF()) }
    }
    var asyncGraphC: AsyncFactory<GraphC> {
        self { GraphC(try await self.asyncGraphF(), try await self.asyncGraphG()) }
    }
    var asyncGraphD: AsyncFactory<GraphD> { self { GraphD(try await self.asyncGraphH()) } }
    var asyncGraphE: AsyncFactory<GraphE> { self { GraphE(try await self.asyncGraphH()) } }
    var asyncGraphF: AsyncFactory<GraphF> { self { GraphF(try await self.asyncGraphI()) } }
    var asyncGraphG: AsyncFactory<GraphG> { self { GraphG(try await self.asyncGraphI()) } }
    var asyncGraphH: AsyncFactory<GraphH> { self { GraphH() }.graph }
    var asyncGraphI: AsyncFactory<GraphI> { self { GraphI() }.graph }
}

/// Runs `body` in a task and waits for it: one hand-over per round, not per operation.
func blocking(_ body: @escaping @Sendable () async throws -> Void) {
    let done = DispatchSemaphore(value: 0)
    Task {
        try! await body()
        done.signal()
    }
    done.wait()
}

extension Scenarios {
    static var async: [Subject] {
        asyncHit + asyncUnique + asyncGraph + uniqueAfterAsync
    }

    private static var asyncHit: [Subject] {
        [
            Subject("async-cached-hit", "Depot") {
                let container = Depot.Container()
                blocking { _ = try await container.asyncCachedService() }
                return { n in
                    blocking {
                        for _ in 0..<n { blackHole(try await container.asyncCachedService()) }
                    }
                }
            },
            Subject("async-cached-hit", "Depot+alias", note: "an alias of the .cached service") {
                let container = Depot.Container()
                blocking { _ = try await container.asyncIdentifiedService() }
                return { n in
                    blocking {
                        for _ in 0..<n { blackHole(try await container.asyncIdentifiedService()) }
                    }
                }
            },
            Subject(
                "async-cached-hit", "baseline-sync-hit", note: "Factory's cached hit, in a task"
            ) {
                let container = Depot.Container()
                blocking { _ = try await container.asyncCachedService() }
                _ = container.cachedService()
                return { n in blocking { for _ in 0..<n { blackHole(container.cachedService()) } } }
            },
        ]
    }

    private static var asyncUnique: [Subject] {
        [
            Subject("async-unique", "Depot") {
                let container = Depot.Container()
                return { n in
                    blocking {
                        for _ in 0..<n { blackHole(try await container.asyncUniqueService()) }
                    }
                }
            },
            Subject("async-unique", "baseline-direct-await", note: "one async call that makes it") {
                { n in blocking { for _ in 0..<n { blackHole(await AsyncBuilt.service()) } } }
            },
        ]
    }

    private static var asyncGraph: [Subject] {
        [
            Subject("async-graph10", "Depot") {
                let container = Depot.Container()
                blocking {
                    let root = try await container.asyncGraphRoot()
                    precondition(root.a.d.h === root.b.e.h && root.b.f.i === root.c.g.i)
                }
                return { n in
                    blocking { for _ in 0..<n { blackHole(try await container.asyncGraphRoot()) } }
                }
            },
            Subject(
                "async-graph10", "baseline-closures",
                note: "the same declarations as stored async closures, no container"
            ) {
                let closures = ClosureGraph(bindsNodes: false)
                return { n in blocking { for _ in 0..<n { blackHole(try await closures.root()) } } }
            },
            Subject(
                "async-graph10", "baseline-closures-bound",
                note: "baseline-closures, each node bound as a task-local while its closure runs"
            ) {
                let bound = ClosureGraph(bindsNodes: true)
                return { n in blocking { for _ in 0..<n { blackHole(try await bound.root()) } } }
            },
            Subject(
                "async-graph10", "baseline-direct-await",
                note: "built by hand, one async call per object"
            ) {
                { n in blocking { for _ in 0..<n { blackHole(await AsyncBuilt.root()) } } }
            },
        ]
    }

    /// A synchronous `.unique` resolve after an async resolution in the process, which then
    /// also looks for an async resolution to join; and inside a task, where it reads the
    /// task-local.
    private static var uniqueAfterAsync: [Subject] {
        /// A container that has resolved asynchronously.
        @Sendable func afterAsync() -> Depot.Container {
            let container = Depot.Container()
            blocking { _ = try await container.asyncUniqueService() }
            return container
        }
        let after = "after async resolutions"
        let inTask = "in a task, after async resolutions"
        return [
            Subject("unique", "Depot", variant: after) {
                let container = afterAsync()
                return { n in for _ in 0..<n { blackHole(container.uniqueService()) } }
            },
            Subject("unique", "baseline-direct", variant: after) {
                _ = afterAsync()
                return { n in for _ in 0..<n { blackHole(Service()) } }
            },
            Subject("unique", "Depot", variant: inTask) {
                let container = afterAsync()
                return { n in blocking { for _ in 0..<n { blackHole(container.uniqueService()) } } }
            },
            Subject("unique", "baseline-direct", variant: inTask) {
                _ = afterAsync()
                return { n in blocking { for _ in 0..<n { blackHole(Service()) } } }
            },
        ]
    }
}

/// graph10's objects made by async functions, as code without a container would.
enum AsyncBuilt {
    @inline(never) static func service() async -> Service { Service() }
    @inline(never) static func h() async -> GraphH { GraphH() }
    @inline(never) static func i() async -> GraphI { GraphI() }
    @inline(never) static func d(_ h: GraphH) async -> GraphD { GraphD(h) }
    @inline(never) static func e(_ h: GraphH) async -> GraphE { GraphE(h) }
    @inline(never) static func f(_ i: GraphI) async -> GraphF { GraphF(i) }
    @inline(never) static func g(_ i: GraphI) async -> GraphG { GraphG(i) }
    @inline(never) static func root() async -> GraphRoot {
        let h = await h()
        let i = await i()
        let a = GraphA(await d(h), await e(h))
        let b = GraphB(await e(h), await f(i))
        let c = GraphC(await f(i), await g(i))
        return GraphRoot(a, b, c)
    }
}

/// What FactoryKit-style async declarations cost with no container at all: a computed property
/// that makes a value holding a closure capturing `self`, called with `await`. The floor under
/// `async-graph10`'s Depot figure (H and I are made twice here: there is no graph).
///
/// With `bindsNode`, it also does what any container must do per node for the graph and the
/// path to follow the resolution into child tasks (`async let`, task groups) that a closure
/// starts: bind a node of its own, naming its parent, as a task-local while the closure runs. A
/// child task sees the node that was bound when it was made, so a binding per node, not one
/// per resolution, is what tells the child where in the path it is.
struct StoredAsyncClosure<T>: @unchecked Sendable {
    let bindsNode: Bool
    let body: nonisolated(nonsending) () async throws -> T
    init(_ bindsNode: Bool, _ body: nonisolated(nonsending) @escaping () async throws -> T) {
        (self.bindsNode, self.body) = (bindsNode, body)
    }
    @inline(never) nonisolated(nonsending) func callAsFunction() async throws -> T {
        guard bindsNode else { return try await body() }
        return try await BoundNode.$current.withValue(BoundNode(parent: BoundNode.current)) {
            try await body()
        }
    }
}

final class BoundNode: Sendable {
    @TaskLocal static var current: BoundNode?
    let parent: BoundNode?
    init(parent: BoundNode?) { self.parent = parent }
}

/// graph10's declarations as ``StoredAsyncClosure``s, binding a node per factory or not.
final class ClosureGraph: Sendable {
    let bindsNodes: Bool
    init(bindsNodes: Bool) { self.bindsNodes = bindsNodes }

    var root: StoredAsyncClosure<GraphRoot> {
        StoredAsyncClosure(bindsNodes) {
            GraphRoot(try await self.a(), try await self.b(), try await self.c())
        }
    }
    var a: StoredAsyncClosure<GraphA> {
        StoredAsyncClosure(bindsNodes) { GraphA(try await self.d(), try await self.e()) }
    }
    var b: StoredAsyncClosure<GraphB> {
        StoredAsyncClosure(bindsNodes) { GraphB(try await self.e(), try await self.f()) }
    }
    var c: StoredAsyncClosure<GraphC> {
        StoredAsyncClosure(bindsNodes) { GraphC(try await self.f(), try await self.g()) }
    }
    var d: StoredAsyncClosure<GraphD> {
        StoredAsyncClosure(bindsNodes) { GraphD(try await self.h()) }
    }
    var e: StoredAsyncClosure<GraphE> {
        StoredAsyncClosure(bindsNodes) { GraphE(try await self.h()) }
    }
    var f: StoredAsyncClosure<GraphF> {
        StoredAsyncClosure(bindsNodes) { GraphF(try await self.i()) }
    }
    var g: StoredAsyncClosure<GraphG> {
        StoredAsyncClosure(bindsNodes) { GraphG(try await self.i()) }
    }
    var h: StoredAsyncClosure<GraphH> { StoredAsyncClosure(bindsNodes) { GraphH() } }
    var i: StoredAsyncClosure<GraphI> { StoredAsyncClosure(bindsNodes) { GraphI() } }
}
