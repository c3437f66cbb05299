extension ContainerManager {
    /// Reports, once per pair, that `owner`'s instance (kept by `ownerScope`) holds `dependency`,
    /// whose scope means it to live shorter: a captive dependency.
    func warnCaptive(
        owner: ResolutionStep, ownerScope: Scope, dependency: ResolutionStep, scope: Scope
    ) {
        let pair = "\(owner) -> \(dependency)"
        let isFirst = state.withLock { $0.seldom.warnedCaptives.insert(pair).inserted }
        guard isFirst else { return }
        logger(
            "Depot: captive dependency: \(owner) [\(ownerScope)] resolves \(dependency) "
                + "[\(scope)] and keeps it as long as itself, longer than the \(scope) scope "
                + "says. Give \(dependency) a scope that lives at least as long as "
                + "\(ownerScope), or have \(owner) hold a Provider (.provider) or Lazy (.lazy) "
                + "of it and resolve it where it is used.")
    }
}
