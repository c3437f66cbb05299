/// Where process-wide scopes keep their instances.
///
/// There is one for the process; DepotTesting's `.container` trait gives each test its own, so
/// singletons made in one test never reach another. A container takes the realm current when it
/// is created, so the hot path never reads a task-local.
final class SingletonRealm: Sendable {
    @TaskLocal static var current = SingletonRealm()

    let instances = Locked(InstanceTable())

    func removeInstances(of scope: Scope) {
        instances.withLock { table in table.removeAll { _, id in id == ObjectIdentifier(scope) } }
    }

    func removeInstances(of key: FactoryKey) {
        instances.withLock { table in table.removeAll { instance, _ in instance.factory == key } }
    }
}
