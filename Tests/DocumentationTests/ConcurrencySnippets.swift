import Depot
import DepotTesting
import Testing

// The snippets of Concurrency.md.

actor ImageStore {
    private var images: [String: [UInt8]] = [:]
    func store(_ bytes: [UInt8], as name: String) { images[name] = bytes }
    func image(named name: String) -> [UInt8]? { images[name] }
}
extension Container {
    var imageStore: Factory<ImageStore> { self { ImageStore() }.cached }
}

@MainActor
final class AccountViewModel {
    var title = "Account"
}
extension Container {
    @MainActor var accountViewModel: Factory<AccountViewModel> {
        self { AccountViewModel() }
    }
}

@MainActor
func showAccount() -> String {
    let model = Container.shared.accountViewModel.resolveOnMainActor()
    return model.title
}

@MainActor
final class AccountScreen {
    @Injected(\.accountViewModel) var model
}

/// Lines appended from anywhere, for the `deinit` snippet.
final class ConnectionLog: @unchecked Sendable {
    private let lines = Locked<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

extension Container {
    var connectionLog: Factory<ConnectionLog> { self { ConnectionLog() }.cached }
    var connection: Factory<Connection> { self { Connection(container: self) }.cached }
}

final class Connection {
    let container: Container
    init(container: Container) { self.container = container }
    deinit { container.connectionLog().append("closed") }
}

@Suite(.container)
struct ConcurrencySnippets {
    @Test func aDeinitMayResolveFromTheContainerThatLetsItGo() {
        let container = Container()
        _ = container.connection()
        let log = container.connectionLog()
        container.connection.reset()
        #expect(log.all == ["closed"])
    }

    @Test @MainActor func aMainActorTypesInjectedPropertiesResolveOnTheMainActor() {
        #expect(AccountScreen().model.title == "Account")
    }

    @Test func anyTaskUsesTheActorAFactoryMade() async {
        let store = Container.shared.imageStore()
        await store.store([1, 2, 3], as: "avatar")
        let read = await Task { await Container.shared.imageStore().image(named: "avatar") }.value
        #expect(read == [1, 2, 3])
    }

    @Test @MainActor func aMainActorFactoryResolvesOnTheMainActor() {
        #expect(showAccount() == "Account")
        #expect(
            Container.shared.accountViewModel.resolveOnMainActor()
                !== Container.shared.accountViewModel.resolveOnMainActor())
    }

    @Test func aMainActorFactoryResolvesFromElsewhereThroughTheGlobalActor() async {
        let model = await Container.shared.accountViewModel.resolveOnGlobalActor(MainActor.shared)
        #expect(await model.title == "Account")
    }

    @Test func aHundredTasksGetTheOneInstanceTheFactoryMadeOnce() async {
        let made = Locked(0)
        let identities = Locked(Set<ObjectIdentifier>())
        Container.shared.imageStore.register {
            made.withLock { $0 += 1 }
            return ImageStore()
        }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<100 {
                group.addTask { _ = Container.shared.imageStore() }
            }
        }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<100 {
                group.addTask {
                    let store = Container.shared.imageStore()
                    identities.withLock { _ = $0.insert(ObjectIdentifier(store)) }
                }
            }
        }
        #expect(made.withLock { $0 } == 1)
        #expect(identities.withLock { $0.count } == 1)
    }

    @Test func childTasksSeeTheTestsContainerAndDetachedTasksTheProcesss() async {
        let mine = Container.shared
        let child = await Task { Container.shared }.value
        async let inherited = Container.shared
        let detached = await Task.detached { Container.shared }.value
        #expect(child === mine)
        #expect(await inherited === mine)
        #expect(detached !== mine)
    }
}
