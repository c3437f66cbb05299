import Depot
import Foundation
import Testing

protocol APIClient: AnyObject, Sendable {
    var trail: String { get }
}

final class LiveClient: APIClient, @unchecked Sendable {
    let trail: String
    init(_ trail: String = "live") { self.trail = trail }
}

final class Wrapping: APIClient, @unchecked Sendable {
    let inner: any APIClient
    let name: String
    init(_ name: String, _ inner: any APIClient) { (self.name, self.inner) = (name, inner) }
    var trail: String { "\(name)(\(inner.trail))" }
}

final class DecoratedContainer: SharedContainer, ScopingContainer {
    static let shared = DecoratedContainer()
    let manager = ContainerManager()
    let made = Locked(0)
    let wrapped = Locked(0)
    let disposed = Locked([String]())
    init() {}
}

extension DecoratedContainer {
    var client: Factory<any APIClient> {
        self { [made] in
            made.withLock { $0 += 1 }
            return LiveClient()
        }.cached.onDispose { [disposed] in
            let trail = $0.trail
            disposed.withLock { $0.append(trail) }
        }
    }
    var uniqueClient: Factory<any APIClient> { self { LiveClient() } }
    var clients: Factory<[any APIClient]> { contributions() }
    var asyncClient: AsyncFactory<any APIClient> { self { LiveClient("async") }.cached }
    var namedClient: ParameterFactory<String, any APIClient> { self { LiveClient($0) } }
}

/// Two modules' decorators of `client`.
private func timingModule(_ container: DecoratedContainer) {
    container.decorate(\.client, order: 10) { Wrapping("timed", $0) }
}

private func loggingModule(_ container: DecoratedContainer) {
    container.decorate(\.client, name: "logged") { [wrapped = container.wrapped] in
        wrapped.withLock { $0 += 1 }
        return Wrapping("logged", $0)
    }
    container.decorate(\.client, name: "audited") { Wrapping("audited", $0) }
}

@Suite struct DecoratorTests {
    @Test func decoratorsWrapInOrderThenByNameWhateverOrderModulesRanIn() {
        let first = DecoratedContainer()
        timingModule(first)
        loggingModule(first)
        let second = DecoratedContainer()
        loggingModule(second)
        timingModule(second)
        let expected = "timed(logged(audited(live)))"
        #expect(first.client().trail == expected)
        #expect(second.client().trail == expected)
    }

    @Test func theKeptInstanceIsTheDecoratedOneMadeOnceAndDisposedOnce() async {
        let container = DecoratedContainer()
        loggingModule(container)
        let one = container.client()
        #expect(container.client() === one)
        #expect(container.made.withLock { $0 } == 1)
        #expect(container.wrapped.withLock { $0 } == 1)
        _ = await container.shutdown()
        #expect(container.disposed.withLock { $0 } == ["logged(audited(live))"])
    }

    @Test func aRegistrationAndATestsMockAreDecoratedAndDecoratorsSurviveThem() {
        let container = DecoratedContainer()
        timingModule(container)
        container.client.register { LiveClient("mock") }
        #expect(container.client().trail == "timed(mock)")
        container.client.reset()
        #expect(container.client().trail == "timed(live)")
        container.client.reset(.registration)
        #expect(container.client().trail == "timed(live)")
        container.client.onArg("decorator-context") { LiveClient("context") }
        FactoryContext.setArg("decorator-context", forKey: "decorator-context")
        defer { FactoryContext.removeArg(forKey: "decorator-context") }
        container.client.reset(.scope)
        #expect(container.client().trail == "timed(context)")
    }

    @Test func addingOrRemovingADecoratorDropsWhatTheFactoryKeeps() {
        let container = DecoratedContainer()
        #expect(container.client().trail == "live")
        timingModule(container)
        #expect(container.client().trail == "timed(live)")
        container.decorate(\.client, name: "audited") { Wrapping("audited", $0) }
        #expect(container.client().trail == "timed(audited(live))")
        container.removeDecorator(named: "audited", from: \.client)
        #expect(container.client().trail == "timed(live)")
        // A decorator of the same name replaces the first.
        container.decorate(\.client, name: "x") { Wrapping("first", $0) }
        container.decorate(\.client, name: "x") { Wrapping("second", $0) }
        #expect(container.client().trail == "timed(second(live))")
    }

    @Test func aDecoratorIsNamedByTheFunctionThatAddsItUnlessNamed() {
        let container = DecoratedContainer()
        timingModule(container)
        loggingModule(container)
        container.removeDecorator(named: "timingModule(_:)", from: \.client)
        #expect(container.client().trail == "logged(audited(live))")
    }

    @Test func factoryKitsDecoratorSeesTheWrappedValue() {
        let container = DecoratedContainer()
        let seen = Locked([String]())
        container.decorate(\.uniqueClient) { Wrapping("wrapped", $0) }
        let factory = container.uniqueClient.decorator { client in
            seen.withLock { $0.append(client.trail) }
        }
        _ = factory()
        #expect(seen.withLock { $0 } == ["wrapped(live)"])
    }

    @Test func aContributedFactoryIsDecoratedInTheCollection() {
        let container = DecoratedContainer()
        container.contribute(\.uniqueClient, to: \.clients)
        container.decorate(\.uniqueClient) { Wrapping("wrapped", $0) }
        #expect(container.clients().map(\.trail) == ["wrapped(live)"])
    }

    @Test func asyncAndParameterisedFactoriesAreDecorated() async throws {
        let container = DecoratedContainer()
        container.decorate(\.asyncClient) { Wrapping("wrapped", $0) }
        container.decorate(\.namedClient) { Wrapping("named", $0) }
        let client = try await container.asyncClient()
        #expect(client.trail == "wrapped(async)")
        #expect(try await container.asyncClient() === client)
        #expect(container.namedClient("a").trail == "named(a)")
    }

    @Test func pushAndPopTreatDecoratorsAsRegistrations() {
        let container = DecoratedContainer()
        timingModule(container)
        container.manager.push()
        container.decorate(\.client, name: "audited") { Wrapping("audited", $0) }
        #expect(container.client().trail == "timed(audited(live))")
        container.manager.pop()
        #expect(container.client().trail == "timed(live)")
    }

    @Test func aManagerResetRemovesDecorators() {
        let container = DecoratedContainer()
        timingModule(container)
        #expect(container.client().trail == "timed(live)")
        container.manager.reset()
        #expect(container.client().trail == "live")
    }

    @Test func aLifetimeScopeHasItsContainersDecorators() {
        let container = DecoratedContainer()
        timingModule(container)
        let scope = container.newLifetimeScope()
        #expect(scope.client().trail == "timed(live)")
        #expect(scope.client() !== container.client())
    }

    @Test func aChildSeesItsParentsDecoratorsAndItsOwnAndItsRemovalStaysInIt() {
        let parent = DecoratedContainer()
        timingModule(parent)
        parent.decorate(\.client, name: "audited") { Wrapping("audited", $0) }
        let child = parent.makeChild()
        #expect(child.client() === parent.client())
        child.decorate(\.client, order: 5, name: "child") { Wrapping("child", $0) }
        #expect(child.client().trail == "timed(child(audited(live)))")
        #expect(child.client() === child.client())
        child.removeDecorator(named: "audited", from: \.client)
        #expect(child.client().trail == "timed(child(live))")
        #expect(parent.client().trail == "timed(audited(live))")
    }

    @Test func aDecoratorThatResolvesItsFactoryIsACycle() throws {
        let run = try runCrashHelper("wrapping-decorator-cycle")
        #expect(run.status != 0)
        #expect(
            run.errors.contains(
                "Depot: circular dependency: Container.wrapped<Node> -> Container.wrapped<Node>"),
            "\(run.errors)")
    }

    @Test func eightThreadsAndAHundredTasksGetOneDecoratedInstance() async {
        for _ in 0..<20 {
            let container = DecoratedContainer()
            loggingModule(container)
            let made = runOnThreads(8) { _ in ObjectIdentifier(container.client()) }
            #expect(Set(made).count == 1)
            #expect(container.wrapped.withLock { $0 } == 1)
        }
        let container = DecoratedContainer()
        loggingModule(container)
        let made = await withTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<100 { group.addTask { ObjectIdentifier(container.client()) } }
            return await group.reduce(into: Set()) { $0.insert($1) }
        }
        #expect(made.count == 1)
        #expect(container.wrapped.withLock { $0 } == 1)
        _ = await container.shutdown()
        #expect(container.disposed.withLock { $0 } == ["logged(audited(live))"])
    }
}
