/// The default container: extend it with your factories.
public final class Container: SharedContainer {
    /// The container that property wrappers resolve from; task-local, so tests can swap it.
    @TaskLocal public static var shared = Container(manager: ContainerManager(realm: .process))

    /// This container's registrations, caches and settings.
    public let manager: ContainerManager

    /// Makes a container with no registrations and empty caches.
    public init() {
        manager = ContainerManager()
    }

    @usableFromInline
    init(manager: ContainerManager) {
        self.manager = manager
    }
}
