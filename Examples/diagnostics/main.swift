// Depot's diagnostics on a small app: a trace of each resolution, a captive-dependency warning,
// the dependency graph as Graphviz DOT and Mermaid, and the cache inventory.
import Depot

protocol API: Sendable {}
final class LiveAPI: API {}
final class Database: Sendable {}
final class DateFormatterBox: Sendable {}
final class ProfileStore: Sendable {
    let api: any API
    let database: Database
    init(api: any API, database: Database) { (self.api, self.database) = (api, database) }
}
final class ProfileModel: Sendable {
    let store: ProfileStore
    let formatter: DateFormatterBox
    init(store: ProfileStore, formatter: DateFormatterBox) {
        (self.store, self.formatter) = (store, formatter)
    }
}

extension Container {
    var api: Factory<any API> { self { LiveAPI() }.cached }
    var database: Factory<Database> { self { Database() }.singleton }
    var formatter: Factory<DateFormatterBox> { self { DateFormatterBox() } }
    var profileStore: Factory<ProfileStore> {
        self { ProfileStore(api: self.api(), database: self.database()) }.cached
    }
    var profileModel: Factory<ProfileModel> {
        self { ProfileModel(store: self.profileStore(), formatter: self.formatter()) }
    }
    /// A singleton first made inside a request's lifetime scope keeps that request's store:
    /// a captive dependency, kept after the request ends.
    var profileCache: Factory<ProfileModel> {
        self { ProfileModel(store: self.profileStore(), formatter: self.formatter()) }.singleton
    }
}

let container = Container()
container.manager.logger = { print($0) }

print("== trace")
container.manager.trace = true
_ = container.profileModel()
_ = container.profileModel()
container.manager.trace = false

print("\n== captive dependency (debug builds only)")
_ = container.newLifetimeScope().profileCache()
container.profileCache.reset()

print("\n== dependency graph")
let recorder = Container()
recorder.manager.isRecordingDependencies = true
_ = recorder.profileModel()
let graph = recorder.manager.dependencyGraph()
print(graph.dot())
print(graph.mermaid())
precondition(graph.edges.count == 4, "profileModel -> store, formatter; store -> api, database")

print("== cached now, per scope")
let cached = recorder.manager.cachedInstances()
// ["cached": ["api<any API>", "profileStore<ProfileStore>"], "singleton": ["database<Database>"]]
for (scope, factories) in cached.sorted(by: { $0.key < $1.key }) {
    print("\(scope): \(factories.joined(separator: ", "))")
}
precondition(
    cached == [
        "cached": ["api<any API>", "profileStore<ProfileStore>"],
        "singleton": ["database<Database>"],
    ])
