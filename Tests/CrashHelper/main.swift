// Runs one scenario named by the first argument; the ones that should stop the process do, and
// the ones that measure the whole process (its resident memory) have it to themselves.
import Depot
import Foundation

final class A: @unchecked Sendable { init(_: B) {} }
final class B: @unchecked Sendable { init(_: A) {} }
final class Node: @unchecked Sendable {
    let depth: Int
    init(depth: Int) { self.depth = depth }
}

extension Container {
    var a: Factory<A> { self { A(self.b()) } }
    var b: Factory<B> { self { B(self.a()) } }
    var cachedA: Factory<A> { self { A(self.cachedB()) }.cached }
    var cachedB: Factory<B> { self { B(self.cachedA()) }.cached }
    var countdown: ParameterFactory<Int, Node> {
        self { n in n == 0 ? Node(depth: 0) : Node(depth: self.countdown(n - 1).depth + 1) }
    }
    var again: ParameterFactory<Int, Node> { self { n in self.again(n) } }
    /// A parameter not equal to itself, passed on unchanged: a cycle all the same.
    var nanAgain: ParameterFactory<Double, Node> { self { x in self.nanAgain(x) } }
    /// 0 -> 1 -> ... -> 12 -> 3: a cycle of ten steps after three that are not in it.
    var chain: ParameterFactory<Int, Node> {
        self { n in Node(depth: self.chain(n == 12 ? 3 : n + 1).depth + 1) }
    }
    /// 0 -> 1 -> ... -> 40 -> 25: a cycle of 16 steps far below the root, where the cycle
    /// check counts the path's steps instead of walking it.
    var deepChain: ParameterFactory<Int, Node> {
        self { n in Node(depth: self.deepChain(n == 40 ? 25 : n + 1).depth + 1) }
    }
    var graphA: Factory<A> { self { A(self.graphB()) }.graph }
    var graphB: Factory<B> { self { B(self.graphA()) }.graph }
    var promisedNode: Factory<Node?> { promised() }
    /// A decorator that resolves its own factory: a cycle through the decorator.
    var decorated: Factory<Node> {
        self { Node(depth: 0) }.cached.decorator { _ in _ = self.decorated() }
    }
    // A cycle through an alias: the source resolves the alias of itself. A `.cached` source's
    // first resolve takes `prepare`; a `.unique` one's is planned without it.
    var aliasedNode: Factory<Node> { self { Node(depth: self.nodeAlias().depth + 1) }.cached }
    var nodeAlias: Factory<Node> { alias(\.aliasedNode) { $0 } }
    var uniqueAliasedNode: Factory<Node> {
        self { Node(depth: self.uniqueNodeAlias().depth + 1) }
    }
    var uniqueNodeAlias: Factory<Node> { alias(\.uniqueAliasedNode) { $0 } }
    // A wrapping decorator that resolves the factory it decorates.
    var wrapped: Factory<Node> { self { Node(depth: 0) }.cached }
    var sharedNode: ParameterFactory<Int, Node> {
        self { Node(depth: $0) }.shared.scopeOnParameters
    }
    var weakSingletonNode: ParameterFactory<Int, Node> {
        self { Node(depth: $0) }.weakSingleton.scopeOnParameters
    }
}

extension Container {
    /// Declared on the main actor: its closure runs there.
    @MainActor var mainActorNode: Factory<Node> { self { Node(depth: 0) } }
}

/// Both threads hold their creation before either asks for the other's.
let bothStarted = DispatchGroup()

extension Container {
    var slowA: Factory<A> {
        self {
            bothStarted.leave()
            bothStarted.wait()
            return A(self.slowB())
        }.cached
    }
    var slowB: Factory<B> {
        self {
            bothStarted.leave()
            bothStarted.wait()
            return B(self.slowA())
        }.cached
    }
}

/// Two threads sharing one graph through its providers, each making one graph instance before
/// it asks for the other's.
let graphThreadsStarted = DispatchGroup()

/// The providers of two graph factories, made in one graph.
struct GraphProviders: Sendable {
    let a: Provider<A>
    let b: Provider<B>
}

extension Container {
    var slowThreadGraphA: Factory<A> {
        self {
            graphThreadsStarted.leave()
            graphThreadsStarted.wait()
            return A(self.slowThreadGraphB())
        }.graph
    }
    var slowThreadGraphB: Factory<B> {
        self {
            graphThreadsStarted.leave()
            graphThreadsStarted.wait()
            return B(self.slowThreadGraphA())
        }.graph
    }
    var graphProviders: Factory<GraphProviders> {
        self {
            GraphProviders(a: self.slowThreadGraphA.provider, b: self.slowThreadGraphB.provider)
        }
    }
}

/// The three threads of a ring hold their creations before any asks for the next's.
let ringStarted = DispatchGroup()

extension Container {
    /// The first thread's outer creation, which the third waits for.
    var ringA: Factory<A> { self { A(self.ringInner()) }.cached }
    var ringInner: Factory<B> {
        self {
            ringStarted.leave()
            ringStarted.wait()
            return B(self.ringB())
        }.cached
    }
    var ringB: Factory<A> {
        self {
            ringStarted.leave()
            ringStarted.wait()
            return self.ringC()
        }.cached
    }
    var ringC: Factory<A> {
        self {
            ringStarted.leave()
            ringStarted.wait()
            return self.ringA()
        }.cached
    }
}

extension Container {
    var asyncA: AsyncFactory<A> { self { A(try await self.asyncB()) } }
    var asyncB: AsyncFactory<B> { self { B(try await self.asyncA()) }.cached }
    /// Cycles through async aliases, as `aliasedNode` and `uniqueAliasedNode` for sync ones.
    var asyncAliasedNode: AsyncFactory<Node> {
        self { Node(depth: try await self.asyncNodeAlias().depth + 1) }.cached
    }
    var asyncNodeAlias: AsyncFactory<Node> { alias(\.asyncAliasedNode) { $0 } }
    var uniqueAsyncAliasedNode: AsyncFactory<Node> {
        self { Node(depth: try await self.uniqueAsyncNodeAlias().depth + 1) }
    }
    var uniqueAsyncNodeAlias: AsyncFactory<Node> { alias(\.uniqueAsyncAliasedNode) { $0 } }
    /// A cycle through an alias of an alias: both are named.
    var outerNode: Factory<Node> { self { Node(depth: self.outerAlias().depth + 1) } }
    var innerAlias: Factory<Node> { alias(\.outerNode) { $0 } }
    var outerAlias: Factory<Node> { alias(\.innerAlias) { $0 } }
    var asyncOuterNode: AsyncFactory<Node> {
        self { Node(depth: try await self.asyncOuterAlias().depth + 1) }
    }
    var asyncInnerAlias: AsyncFactory<Node> { alias(\.asyncOuterNode) { $0 } }
    var asyncOuterAlias: AsyncFactory<Node> { alias(\.asyncInnerAlias) { $0 } }
    /// As `chain`: a cycle of ten steps after three that are not in it.
    var asyncChain: AsyncParameterFactory<Int, Node> {
        self { n in Node(depth: try await self.asyncChain(n == 12 ? 3 : n + 1).depth + 1) }
    }
    /// 0 -> 1 -> ... -> 40 -> 25, async: a cycle far below the root.
    var deepAsyncChain: AsyncParameterFactory<Int, Node> {
        self { n in Node(depth: try await self.deepAsyncChain(n == 40 ? 25 : n + 1).depth + 1) }
    }
    var asyncGraphA: AsyncFactory<A> { self { A(try await self.asyncGraphB()) }.graph }
    var asyncGraphB: AsyncFactory<B> { self { B(try await self.asyncGraphA()) }.graph }
    var slowGraphA: AsyncFactory<A> {
        self {
            await graphBothStarted.arrive()
            return A(try await self.slowGraphB())
        }.graph
    }
    var slowGraphB: AsyncFactory<B> {
        self {
            await graphBothStarted.arrive()
            return B(try await self.slowGraphA())
        }.graph
    }
    /// Resolves the two graph factories above in child tasks of one resolution's graph.
    var graphPairOfCycle: AsyncFactory<Int> {
        self {
            async let a = self.slowGraphA()
            async let b = self.slowGraphB()
            _ = try await (a, b)
            return 0
        }
    }
    var slowAsyncA: AsyncFactory<A> {
        self {
            await asyncBothStarted.arrive()
            return A(try await self.slowAsyncB())
        }.cached
    }
    var slowAsyncB: AsyncFactory<B> {
        self {
            await asyncBothStarted.arrive()
            return B(try await self.slowAsyncA())
        }.cached
    }
}

/// Lets two tasks through once both have arrived: each then holds its creation.
actor Rendezvous {
    private var arrived = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func arrive() async {
        arrived += 1
        if arrived == 2 {
            waiting.forEach { $0.resume() }
            waiting = []
        } else {
            await withCheckedContinuation { waiting.append($0) }
        }
    }
}

let asyncBothStarted = Rendezvous()
let graphBothStarted = Rendezvous()

/// A storage with a bug: it returns something other than what Depot gave it.
final class WrongStorage: ScopeStorage {
    func value(for key: ScopeKey) -> Any? { "not a node" }
    func setValue(_ value: Any, for key: ScopeKey) {}
    func removeAll() {}
}

/// A storage with a bug: it resolves from the container that calls it, under that container's
/// lock.
final class ResolvingStorage: ScopeStorage {
    func value(for key: ScopeKey) -> Any? { container.cachedNode() }
    func setValue(_ value: Any, for key: ScopeKey) {}
    func removeAll() {}
}

/// Reads itself from inside its own factory.
final class SelfReading: @unchecked Sendable {
    var lazy: Lazy<Node>?
}

extension Container {
    var cachedNode: Factory<Node> { self { Node(depth: 0) }.cached }
    var graphNode: Factory<Node> { self { Node(depth: 0) }.graph }
    /// Three nodes, two of them one graph-scoped instance.
    var graphTriple: Factory<[Node]> {
        self { [self.graphNode(), self.graphNode(), Node(depth: 1)] }
    }
}

/// The process's resident memory, in bytes (0 where /proc is not there).
func residentBytes() -> Int {
    guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
        let pages = statm.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
    else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// A value behind a lock.
final class Guarded<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}

/// Eight threads make lifetime scopes one after another, each resolving its own `.cached`
/// instance, while another thread resets that scope everywhere (so a reset may hold a going
/// scope's state): how many times a scope resolved an instance an earlier scope had made.
func scopesUnderResets() -> Int {
    let stop = Guarded(false)
    let shared = Guarded(0)
    let done = DispatchGroup()
    Thread {
        while !stop.withLock({ $0 }) {
            Scope.cached.reset()
        }
    }.start()
    for _ in 0..<8 {
        done.enter()
        Thread {
            // Held, so that no address is reused for a new instance.
            var earlier: [Node] = []
            for _ in 0..<2_000 {
                let node = container.newLifetimeScope().cachedNode()
                if earlier.contains(where: { $0 === node }) {
                    shared.withLock { $0 += 1 }
                }
                earlier.append(node)
            }
            done.leave()
        }.start()
    }
    done.wait()
    stop.withLock { $0 = true }
    return shared.withLock { $0 }
}

/// A container whose `node` resolves its parent's `node`, for a chain through many containers.
final class ChildChain: ManagedContainer {
    let manager = ContainerManager()
    let parent: ChildChain?
    init(depth: Int) { parent = depth > 0 ? ChildChain(depth: depth - 1) : nil }
    var node: Factory<Node> {
        self { Node(depth: self.parent.map { $0.node().depth + 1 } ?? 0) }
    }
}

let container = Container()
switch CommandLine.arguments.dropFirst().first {
case "async-cycle":
    _ = try await container.asyncA()
    print("finished")
case "async-alias-cycle":
    _ = try await container.asyncNodeAlias()
case "unique-async-alias-cycle":
    _ = try await container.uniqueAsyncNodeAlias()
case "alias-of-alias-cycle":
    _ = container.outerAlias()
case "async-alias-of-alias-cycle":
    _ = try await container.asyncOuterAlias()
case "async-long-cycle":
    _ = try await container.asyncChain(0)
case "deep-async-cycle":
    _ = try await container.deepAsyncChain(0)
    print("finished")
case "async-graph-cycle":
    _ = try await container.asyncGraphA()
case "cross-task-async-cycle":
    async let a = container.slowAsyncA()
    async let b = container.slowAsyncB()
    _ = try await (a, b)
    print("finished")
case "cross-task-graph-cycle":
    _ = try await container.graphPairOfCycle()
    print("finished")
case "cycle":
    _ = container.a()
case "cached-cycle":
    _ = container.cachedA()
case "parameter-cycle":
    _ = container.again(3)
case "long-cycle":
    _ = container.chain(0)
case "deep-cycle":
    _ = container.deepChain(0)
case "graph-cycle":
    _ = container.graphA()
case "parameter-recursion":
    print("depth \(container.countdown(20).depth)")
case "cross-thread-cycle":
    bothStarted.enter()
    bothStarted.enter()
    Thread { _ = container.slowA() }.start()
    _ = container.slowB()
case "cross-thread-graph-cycle":
    graphThreadsStarted.enter()
    graphThreadsStarted.enter()
    let providers = container.graphProviders()
    Thread { _ = providers.a() }.start()
    _ = providers.b()
    print("finished")
case "three-thread-ring":
    for _ in 0..<3 { ringStarted.enter() }
    Thread { _ = container.ringB() }.start()
    Thread { _ = container.ringC() }.start()
    _ = container.ringA()
case "use-scope-late":
    let other = Container()
    let early = container.cachedNode()
    container.useScope(from: other)
    print(
        "dropped \(container.cachedNode() !== early), shared \(container.cachedNode() === other.cachedNode())"
    )
case "wrong-storage":
    let scope = Scope.Custom(name: "wrong") { WrongStorage() }
    let node = container.cachedNode.scope(scope)
    _ = node()
    _ = node()
case "resolving-storage":
    let scope = Scope.Custom(name: "resolving") { ResolvingStorage() }
    let node = container.cachedNode.scope(scope)
    _ = node()
    _ = node()
case "lazy-reads-itself":
    let holder = SelfReading()
    let factory = container.cachedNode.register { Node(depth: holder.lazy!.value.depth + 1) }
    holder.lazy = factory.lazy
    _ = holder.lazy!.value
case "decorator-cycle":
    _ = container.decorated()
case "alias-cycle":
    _ = container.nodeAlias()
case "unique-alias-cycle":
    _ = container.uniqueNodeAlias()
case "wrapping-decorator-cycle":
    container.decorate(\.wrapped) { _ in container.wrapped() }
    _ = container.wrapped()
case "deep-recursion":
    print("depth \(container.countdown(300).depth)")
case "deep-recursion-raised":
    // On the main thread's default stack: unoptimised frames take several times the room.
    ContainerManager.maximumResolutionDepth = 20_000
    print("depth \(container.countdown(FactoryContext.current.isDebug ? 2_000 : 10_000).depth)")
case "deep-recursion-small-stack", "deeper-recursion-small-stack":
    // 512 KiB, the default stack of a thread other than the main one on Apple's platforms.
    let isRaised = CommandLine.arguments.dropFirst().first == "deeper-recursion-small-stack"
    if isRaised { ContainerManager.maximumResolutionDepth = 20_000 }
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        print("depth \(container.countdown(isRaised ? 10_000 : 300).depth)")
        done.signal()
    }
    thread.stackSize = 512 << 10
    thread.start()
    done.wait()
case "child-chain":
    // Each child's `node` resolves its parent's: a chain through 1,000 containers.
    ContainerManager.maximumResolutionDepth = 100
    print("depth \(ChildChain(depth: 1_000).node().depth)")
case "nan-cycle":
    _ = container.nanAgain(.nan)
case "depth-zero":
    ContainerManager.maximumResolutionDepth = 0
case "weak-parameter-memory":
    // Measured alone in this process: 300,000 distinct parameters, no instance held.
    for n in 0..<10_000 { _ = (container.sharedNode(n), container.weakSingletonNode(n)) }
    let before = residentBytes()
    for n in 10_000..<310_000 { _ = (container.sharedNode(n), container.weakSingletonNode(n)) }
    print("grew \(residentBytes() - before)")
case "graph-memory":
    // Measured alone in this process: resident memory counts everything the process does.
    for _ in 0..<10_000 { _ = container.graphTriple() }
    let before = residentBytes()
    for _ in 0..<1_000_000 { _ = container.graphTriple() }
    print("grew \(residentBytes() - before)")
case "scopes-under-resets":
    // Alone in this process: `Scope.cached.reset()` reaches every container's cached instances.
    print("shared \(scopesUnderResets())")
case "negative-time-to-live":
    _ = container.cachedNode.timeToLive(-5)()
case "nan-time-to-live":
    _ = container.cachedNode.timeToLive(.nan)()
case "main-actor-off-main", "main-actor-off-main-stops":
    container.manager.stopsOnIsolationBreach =
        CommandLine.arguments.dropFirst().first == "main-actor-off-main-stops"
    let factory = container.mainActorNode
    let done = DispatchSemaphore(value: 0)
    Thread {
        print("depth \(factory().depth)")
        done.signal()
    }.start()
    done.wait()
case "main-actor-on-main":
    print("depth \(container.mainActorNode().depth)")
case "promised":
    container.manager.promiseTriggersError = true
    _ = container.promisedNode()
case "ignores-sigterm":
    // A helper that will not end on SIGTERM: the tests' runner must kill it.
    signal(SIGTERM, SIG_IGN)
    FileHandle.standardOutput.write(Data("ignoring SIGTERM\n".utf8))
    while true { sleep(1) }
default:
    print(
        "usage: depot-crash-helper cycle|cached-cycle|parameter-cycle|long-cycle|graph-cycle|"
            + "async-cycle|async-long-cycle|deep-async-cycle|async-graph-cycle|"
            + "cross-task-async-cycle|cross-task-graph-cycle|"
            + "parameter-recursion|deep-recursion|deep-recursion-raised|decorator-cycle|"
            + "alias-cycle|unique-alias-cycle|async-alias-cycle|unique-async-alias-cycle|"
            + "alias-of-alias-cycle|async-alias-of-alias-cycle|"
            + "wrapping-decorator-cycle|"
            + "weak-parameter-memory|negative-time-to-live|nan-time-to-live|"
            + "main-actor-off-main|main-actor-off-main-stops|main-actor-on-main|"
            + "cross-thread-cycle|cross-thread-graph-cycle|three-thread-ring|use-scope-late|"
            + "wrong-storage|resolving-storage|lazy-reads-itself|graph-memory|promised|"
            + "scopes-under-resets|ignores-sigterm")
    exit(2)
}
print("finished")
