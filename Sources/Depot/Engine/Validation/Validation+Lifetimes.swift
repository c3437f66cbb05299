// The lifetime mistakes a validation reports beyond captives: a teardown that never runs, and,
// from what the caching factories keep (`InstanceOwner.keep` notes it in a validation's
// copies), one instance kept by two factories (an alias, or a hand-written forward, with a
// scope of its own) and one class kept by two factories declared with two types (a torn
// lifestyle: `Factory<any Logging>` and `Factory<any Flushing>` each keeping a `FileLogger`).

extension Validation {
    /// Records a teardown that never runs: `factory`, entered at `node`, has `onDispose` and a
    /// scope that keeps no instance.
    func checkTeardown<P, T>(of factory: FactoryRegistration<P, T>, at node: Node) {
        let placement = node.scope.placement
        guard factory.options?.values.disposer != nil, placement == .none || placement == .graph
        else { return }
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
        let kept = Kept(key: step.key, step: step.description, scope: scope)
        let object = ObjectIdentifier(instance)
        let type = ObjectIdentifier(Swift.type(of: instance))
        // The first keeper of each stays, so every later one is compared with it.
        let (same, sameClass) = validation.state.withLock { state in
            let found = (state.keptObjects[object], state.keptTypes[type])
            state.keptObjects[object] = found.0 ?? kept
            state.keptTypes[type] = found.1 ?? kept
            return found
        }
        if let same, same.key != step.key {
            validation.add(
                .aliasWithOwnScope, at: node,
                message: "Depot: \(step) keeps, in the \(scope) scope, the instance "
                    + "\(same.step) keeps: an alias, or a factory that returns another's "
                    + "instance, with a scope of its own, which keeps it past \(same.step)'s "
                    + "resets.",
                fix: "Remove the scope from \(step): an alias resolves its source, whose scope "
                    + "keeps the one instance.")
        } else if let sameClass, same == nil,
            ObjectIdentifier(sameClass.key.valueType) != ObjectIdentifier(step.key.valueType)
        {
            // Two factories of one declared type keep two instances by design: two names.
            let isSingleton = scope === Scope.singleton && sameClass.scope === Scope.singleton
            validation.add(
                isSingleton ? .tornSingleton : .tornLifestyle, at: node,
                message: "Depot: \(step) (\(scope)) and \(sameClass.step) (\(sameClass.scope)) "
                    + "both keep an instance of \(Swift.type(of: instance)): two instances, each "
                    + "with its own lifetime, where one is meant.",
                fix: "Keep it in one factory and declare the other an alias of it: "
                    + "alias(\\.\(sameClass.key.literal)) { $0 }.")
        }
    }

    /// Records a problem found at `node`.
    private func add(
        _ kind: ValidationProblem.Kind, at node: Node, message: String, fix: String
    ) {
        let found = problem(kind, node: node, message: message, fix: fix)
        state.withLock { $0.add(found) }
    }

    /// The first caching factory a validation saw keep an instance, or one of a class.
    struct Kept {
        let key: FactoryKey
        let step: String
        let scope: Scope
    }
}

extension InstanceTable.Made {
    /// The class instance a strong scope keeps, if it is one: what a validation's lifetime
    /// checks compare. (A strong scope's cell is a strong one, or none for a custom scope's.)
    var object: AnyObject? {
        (cell?.instance ?? stored).flatMap(asObject)
    }
}
