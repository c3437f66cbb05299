import Depot
import Foundation
import Testing

final class OtherContainer: SharedContainer {
    static let shared = OtherContainer()
    let manager = ContainerManager()
}

@Suite struct GraphScopeTests {
    @Test func oneInstancePerResolutionGraph() {
        let container = Container()
        let root = container.graphRoot()
        #expect(root.left.shared === root.right.shared)
        let other = container.graphRoot()
        #expect(other.left.shared !== root.left.shared)
    }

    @Test func outermostGraphResolveActsAsUnique() {
        let container = Container()
        #expect(container.graphThing() !== container.graphThing())
    }

    @Test func graphInstancesAreReleasedWhenTheOutermostResolveReturns() {
        let container = Container()
        weak var shared: Thing?
        do {
            let root = container.graphRoot()
            shared = root.left.shared
            #expect(shared != nil)
        }
        #expect(shared == nil)
    }

    @Test func graphInstancesOfOneContainerDoNotLeakIntoAnother() {
        let first = Container()
        let second = Container()
        let pair = first.uniqueThing.register {
            Thing(id: first.graphThing() === second.graphThing() ? 1 : 2)
        }
        #expect(pair().id == 2)
    }

    @Test func concurrentResolutionsNeverShareAGraph() {
        let container = Container()
        let entered = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let slowShared = Locked<Thing?>(nil)
        container.graphLeaf.register {
            let thing = container.graphThing()
            if Thread.current.threadDictionary["slow"] != nil {
                slowShared.withLock { $0 = thing }
                entered.signal()
                proceed.wait()
            }
            return GraphLeaf(shared: thing)
        }
        let slowRoot = Locked<GraphRoot?>(nil)
        let finished = DispatchSemaphore(value: 0)
        startThread {
            Thread.current.threadDictionary["slow"] = true
            slowRoot.withLock { $0 = container.graphRoot() }
            finished.signal()
        }
        #expect(signalled(entered, within: hangLimit))
        let fast = container.graphRoot()
        #expect(fast.left.shared === fast.right.shared)
        #expect(fast.left.shared !== slowShared.current)
        proceed.signal()
        proceed.signal()
        #expect(signalled(finished, within: hangLimit))
        let slow = slowRoot.current!
        #expect(slow.left.shared === slow.right.shared)
        #expect(slow.left.shared !== fast.left.shared)
    }

    #if !DEBUG && os(Linux)
        /// Release builds only: a million resolutions take too long in debug and under TSan.
        /// A leak of 20 bytes per resolution would add 20 MB. Measured in a helper process of its
        /// own: resident memory is the whole process's, and the tests running beside this one
        /// (more of them on more cores) would count too.
        @Test func aMillionGraphResolutionsGrowNoMemory() throws {
            let run = try runCrashHelper("graph-memory")
            #expect(run.status == 0, "\(run.errors)")
            let growth = run.output.split(separator: "\n").first { $0.hasPrefix("grew ") }
            let bytes = growth.flatMap { Int($0.dropFirst("grew ".count)) }
            #expect(bytes != nil, "no figure in: \(run.output)")
            if let bytes {
                #expect(bytes < 8 << 20, "grew \(bytes) bytes")
            }
        }
    #endif

    @Test func aValueTypeIsMadeOncePerGraph() {
        let container = Container()
        let made = Counter()
        container.graphNumber.register {
            made.increment()
            return 7
        }
        let pair = container.graphNumberPair()
        #expect(pair.first == 7 && pair.second == 7)
        #expect(made.value == 1)
        _ = container.graphNumberPair()
        #expect(made.value == 2)
    }

    @Test func aValueTypeMadeBeforeAProviderIsSharedWithItUntilTheResolutionEnds() {
        let container = Container()
        let made = Counter()
        container.graphNumber.register {
            made.increment()
            return made.value
        }
        let holder = container.graphNumberHolder()
        // The provider resolved inside the resolution: the value made before it, not a new one.
        #expect(holder.first == 1 && holder.second == 1)
        #expect(made.value == 1)
        // A graph holds no value type once its resolution ends: the provider makes a new one.
        #expect(holder.provider() == 2)
    }

    @Test func anInstanceWhoseDeinitResolvesIsReleasedAfterItsGraph() {
        let container = Container()
        let roots = Locked<[GraphRoot]>([])
        let made = Counter()
        container.graphDeinitProbe.register {
            made.increment()
            // Only the first probe resolves when it goes: the probes made then do nothing.
            guard made.value == 1 else { return DeinitProbe(nil) }
            return DeinitProbe {
                // Resolved while the ended graph lets go of its instances: a graph of its own.
                let root = container.graphRoot()
                let pair = container.deinitProbePair()
                #expect(pair.first === pair.second)
                roots.withLock { $0.append(root) }
            }
        }
        weak var first: DeinitProbe?
        do {
            let pair = container.deinitProbePair()
            #expect(pair.first === pair.second)
            first = pair.first
        }
        #expect(first == nil)
        #expect(made.value == 2)
        let resolvedInDeinit = roots.current
        #expect(resolvedInDeinit.count == 1)
        if let root = resolvedInDeinit.first {
            #expect(root.left.shared === root.right.shared)
            // The graph of a later resolution is a new one.
            #expect(container.graphRoot().left.shared !== root.left.shared)
        }
    }

    @Test func manyGraphResolutionsKeepNothingAlive() {
        let container = Container()
        let alive = Locked<[Weak]>([])
        container.graphThing.register {
            let thing = Thing()
            alive.withLock { $0.append(Weak(thing)) }
            return thing
        }
        for _ in 0..<10_000 {
            _ = container.graphRoot()
        }
        #expect(alive.current.count == 10_000)
        #expect(alive.current.allSatisfy { $0.object == nil })
    }
}

final class Weak: @unchecked Sendable {
    weak var object: AnyObject?
    init(_ object: AnyObject) { self.object = object }
}

/// Runs `onDeinit` when released.
final class DeinitProbe: @unchecked Sendable {
    private let onDeinit: (() -> Void)?

    init(_ onDeinit: (() -> Void)?) {
        self.onDeinit = onDeinit
    }

    deinit {
        onDeinit?()
    }
}

final class GraphNumberHolder: @unchecked Sendable {
    let first: Int
    let second: Int
    let provider: Provider<Int>
    init(first: Int, second: Int, provider: Provider<Int>) {
        (self.first, self.second, self.provider) = (first, second, provider)
    }
}

extension Container {
    fileprivate var graphNumber: Factory<Int> { self { 0 }.graph }
    fileprivate var graphNumberPair: Factory<(first: Int, second: Int)> {
        self { (self.graphNumber(), self.graphNumber()) }
    }
    fileprivate var graphDeinitProbe: Factory<DeinitProbe> { self { DeinitProbe(nil) }.graph }
    fileprivate var deinitProbePair: Factory<(first: DeinitProbe, second: DeinitProbe)> {
        self { (self.graphDeinitProbe(), self.graphDeinitProbe()) }
    }
    fileprivate var graphNumberHolder: Factory<GraphNumberHolder> {
        self {
            let first = self.graphNumber()
            let provider = self.graphNumber.provider
            return GraphNumberHolder(first: first, second: provider(), provider: provider)
        }
    }
}
