// The lifetime mistakes a validation reports beyond captives: a teardown that never runs, and,
// from what the caching factories keep (`InstanceOwner.keep` notes it in a validation's
// copies), one instance kept by two factories (an alias, or a hand-written forward, with a
// scope of its own) and one class kept by two factories declared with two types (a torn
// lifestyle: `Factory<any Logging>` and `Factory<any Flushing>` each keeping a `FileLogger`).

extension Validation {
    /// Records a teardown that never runs at `node`, a factory with `onDispose` whose scope
    /// keeps no instance.
    func checkTeardown(at node: Node) {
        let step = node.step!
        let found = problem(
            .disposableTransient, node: node,
            message: "Depot: \(step) has onDispose in the \(node.scope) scope, which keeps no "
                + "instance: its teardown never runs.",
            fix: "Give \(step) a caching scope (.cached, .singleton), or tear its instances down "
                + "where they are used, and remove onDispose.")
        state.withLock { $0.add(found) }
    }

    /// Records, in a validation, that the factory at `step` keeps `instance` in `scope`, and
    /// reports another factory that keeps the same instance, or one of the same class while
    /// declared with another type.
    static func noteKept(_ instance: AnyObject, by step: ResolutionStep, in scope: Scope) {
        guard let node = current else { return }
        let validation = node.validation
        let kept = Kept(step: step, scope: scope)
        let object = ObjectIdentifier(instance)
        let type = ObjectIdentifier(Swift.type(of: instance))
        // The first keeper of each stays, so every later one is compared with it.
        let (same, sameClass) = validation.state.withLock { state in
            let found = (state.keptObjects[object], state.keptTypes[type])
            state.keptObjects[object] = found.0 ?? kept
            state.keptTypes[type] = found.1 ?? kept
            return found
        }
        let kind: ValidationProblem.Kind
        let first: Kept
        let what: String
        if let same, same.step.key != step.key {
            (kind, first, what) = (.aliasWithOwnScope, same, "the instance")
        } else if let sameClass, same == nil,
            // Two factories of one declared type keep two instances by design: two names.
            ObjectIdentifier(sameClass.step.key.valueType) != ObjectIdentifier(step.key.valueType)
        {
            let isSingleton = scope === Scope.singleton && sameClass.scope === Scope.singleton
            (kind, first, what) = (
                isSingleton ? .tornSingleton : .tornLifestyle, sameClass,
                "an instance of \(Swift.type(of: instance)), as"
            )
        } else {
            return
        }
        let found = validation.problem(
            kind, node: node,
            message: "Depot: \(kept) keeps \(what) \(first) keeps: "
                + (kind == .aliasWithOwnScope
                    ? "an alias, or a forward, with a scope of its own keeps it past the other's "
                        + "resets."
                    : "two instances, each with its own lifetime, where one is meant."),
            fix: kind == .aliasWithOwnScope
                ? "Remove the scope from \(step): an alias resolves its source, whose scope keeps "
                    + "the one instance."
                : "Keep it in one factory and declare the other an alias of it: "
                    + "alias(\\.\(first.step.key.literal)) { $0 }.")
        validation.state.withLock { $0.add(found) }
    }

    /// The first caching factory a validation saw keep an instance, or one of a class.
    /// A class, so that the validation's tables hold one reference each.
    final class Kept: CustomStringConvertible {
        let step: ResolutionStep
        let scope: Scope

        init(step: ResolutionStep, scope: Scope) { (self.step, self.scope) = (step, scope) }

        var description: String { "\(step) (\(scope))" }
    }
}

extension InstanceTable.Made {
    /// The class instance a strong scope keeps, if it is one: what a validation's lifetime
    /// checks compare. (A strong scope's cell is a strong one, or none for a custom scope's.)
    var object: AnyObject? {
        (cell?.instance ?? stored).flatMap(asObject)
    }
}
