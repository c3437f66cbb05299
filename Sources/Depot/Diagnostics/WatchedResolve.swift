/// One resolve, as a container's ``ContainerManager/watcher`` sees it: what DepotTesting's
/// strict tests judge.
@_spi(Testing)
public struct WatchedResolve: Sendable {
    /// The factory, as `Container.api<LiveAPI>`.
    public let factory: String
    /// The factory's name in its container: `api`.
    public let name: String
    /// The factories from the outermost resolve to this one, each as ``factory`` names it.
    public let path: [String]
    /// The factory whose closure resolved this one, if any.
    public let resolvedBy: String?
    /// Whether the factory ran the closure of its declaration, or one registered for it inside
    /// `autoRegister()`: nothing was registered for it since (a modifier applied from outside
    /// counts as a registration), and no context overrides it.
    public let ranLiveClosure: Bool
    /// Whether the value came from a scope's cache: no closure ran.
    public let isCached: Bool
    /// Whether the declaration says it is as safe in a test as in the app (`safeInTests`).
    public let isSafeInTests: Bool
    /// Whether code called the factory directly, with no factory above it on its path and
    /// not through a property wrapper, `Lazy` or `Provider`: in a test, the code under test.
    public let isDirectCall: Bool

    init(
        _ step: ResolutionStep, path: [ResolutionStep], parent: ResolutionStep?,
        origin: ResolutionOrigin,
        registration: ContainerManager.Registration?, isSafeInTests: Bool, isInjected: Bool
    ) {
        factory = step.description
        name = step.key.literal
        self.path = path.map(\.description)
        resolvedBy = parent?.description
        ranLiveClosure =
            origin == .factory
            || (origin == .registration && registration?.isAutoRegistered == true)
        isCached = origin == .cached
        self.isSafeInTests = isSafeInTests
        isDirectCall = parent == nil && !isInjected
    }
}
