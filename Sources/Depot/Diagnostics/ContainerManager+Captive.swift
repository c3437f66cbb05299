/// A factory being resolved above a dependency on its resolution path, for the captive check.
struct CaptiveOwner {
    let step: ResolutionStep
    /// The scope that keeps its instance, and the manager that resolved it.
    let scope: Scope
    let manager: ContainerManager
}

extension ContainerManager {
    /// In debug builds, reports `step`, resolved in `scope` by this container, once per owner,
    /// if an owner above it (`owners`, innermost first) keeps it longer than it is meant to live.
    func checkCaptive(
        _ step: ResolutionStep, scope: Scope, owners: [CaptiveOwner], path: [ResolutionStep]
    ) {
        guard let owner = owners.first else { return }
        let (isLifetimeScope, reportsShortLived) = state.withLock {
            ($0.isLifetimeScope, $0.settings.reportsShortLivedCaptives)
        }
        // Asked for: a `.unique`, `.graph` or weakly held dependency its owner keeps.
        if reportsShortLived, owner.scope.keepsStrongly, scope.livesShorterThanAnOwner {
            warnCaptive(
                owner: owner.step, dependency: step,
                "Depot: captive dependency: \(owner.step) [\(owner.scope)] resolves \(step) "
                    + "[\(scope)] and keeps it as long as itself, longer than the \(scope) "
                    + "scope says. Give \(step) a scope that lives at least as long as "
                    + "\(owner.scope), or have \(owner.step) hold a Provider (.provider) or Lazy "
                    + "(.lazy) of it and resolve it where it is used.")
        }
        // Always: an instance of this lifetime scope kept by the nearest owner that keeps one,
        // when that owner outlives the scope (a singleton, or a root container's instance).
        guard isLifetimeScope, scope.placement == .container, scope.keepsStrongly,
            let index = owners.firstIndex(where: { $0.scope.keepsStrongly })
        else { return }
        let keeper = owners[index]
        guard
            keeper.scope.placement == .process
                || (keeper.manager !== self
                    && !keeper.manager.state.withLock { $0.isLifetimeScope })
        else { return }
        let ownerPath = path.dropLast(index).map(\.description).joined(separator: " -> ")
        let dependencyPath = (path + [step]).map(\.description).joined(separator: " -> ")
        warnCaptive(
            owner: keeper.step, dependency: step,
            "Depot: captive dependency: \(keeper.step) [\(keeper.scope)] keeps \(step) "
                + "[\(scope)], an instance of a lifetime scope, after the scope ends and "
                + "disposes of it: \(keeper.step) outlives the scope. Owner: \(ownerPath); "
                + "dependency: \(dependencyPath). Resolve \(keeper.step) from the "
                + "lifetime scope with a scope the lifetime scope keeps (.cached), or have it "
                + "hold a Provider (.provider) of \(step) and resolve it where it is used.")
    }

    /// Logs `message` for the (owner, dependency) pair, unless it was logged before.
    private func warnCaptive(owner: ResolutionStep, dependency: ResolutionStep, _ message: String) {
        let pair = "\(owner) -> \(dependency)"
        let isFirst = state.withLock { $0.seldom.warnedCaptives.insert(pair).inserted }
        guard isFirst else { return }
        logger(message)
    }
}
