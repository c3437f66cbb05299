import Depot
import Foundation

/// A container of the tests' own, with a task-local `shared` like `Container`'s.
final class ServiceContainer: SharedContainer {
    @TaskLocal static var shared = ServiceContainer()
    let manager = ContainerManager()
}

/// A container that registers overrides before its first use.
final class AutoContainer: SharedContainer, AutoRegistering {
    static let shared = AutoContainer()
    let manager = ContainerManager()
    let autoRegistrations = Counter()

    func autoRegister() {
        autoRegistrations.increment()
        service.register { MockService("auto") }
        resolvedDuringAutoRegister.register { Thing(id: 42) }
        _ = resolvedDuringAutoRegister()
    }
}

extension AutoContainer {
    var service: Factory<any Service> { self { LiveService() } }
    var resolvedDuringAutoRegister: Factory<Thing> { self { Thing() }.cached }
}

extension ServiceContainer {
    var service: Factory<any Service> { self { LiveService() }.cached }
    var thing: Factory<Thing> { self { Thing() } }
}

extension Container {
    var service: Factory<any Service> { self { LiveService() } }
    var cachedService: Factory<any Service> { self { LiveService() }.cached }
    var uniqueThing: Factory<Thing> { self { Thing() } }
    var cachedThing: Factory<Thing> { self { Thing() }.cached }
    var sharedThing: Factory<Thing> { self { Thing() }.shared }
    var singletonThing: Factory<Thing> { self { Thing() }.singleton }
    var graphThing: Factory<Thing> { self { Thing() }.graph }
    var graphLeaf: Factory<GraphLeaf> { self { GraphLeaf(shared: self.graphThing()) } }
    var graphRoot: Factory<GraphRoot> {
        self { GraphRoot(left: self.graphLeaf(), right: self.graphLeaf()) }
    }
    var thingWithID: ParameterFactory<Int, Thing> { self { Thing(id: $0) } }
    var cachedThingWithID: ParameterFactory<Int, Thing> { self { Thing(id: $0) }.cached }
    var thingPerID: ParameterFactory<Int, Thing> {
        self { Thing(id: $0) }.cached.scopeOnParameters
    }
    var sharedValue: Factory<ValueThing> { self { ValueThing(id: 1) }.shared }
    var promisedService: Factory<(any Service)?> { promised() }
    var madeThing: Factory<Thing> { makes { Thing(id: 7) } }
    var madeThingWithID: ParameterFactory<Int, Thing> { makes { Thing(id: $0) } }
    var promisedThing: ParameterFactory<Int, Thing?> { promised() }
}
