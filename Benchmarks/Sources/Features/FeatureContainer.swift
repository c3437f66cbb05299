import Depot

// A container and its factories declared in a module of their own, as an app's feature module
// declares them: the `cross-module-hit` scenario resolves them from another module, which calls
// the factory's getter here instead of inlining it.

/// A feature module's service.
public final class FeatureService: Sendable {
    public let id = 1

    public init() {}
}

/// A feature module's container.
public final class FeatureContainer: SharedContainer {
    public static let shared = FeatureContainer()
    public let manager = ContainerManager()

    public init() {}
}

extension FeatureContainer {
    public var cachedFeature: Factory<FeatureService> { self { FeatureService() }.cached }
}
