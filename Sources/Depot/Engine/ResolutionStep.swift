/// One factory on the path of a resolution: which container, which key, which parameter.
@usableFromInline
struct ResolutionStep {
    let manager: ObjectIdentifier
    let key: FactoryKey
    /// The parameter of a `ParameterFactory`, which tells recursion through other parameter
    /// values apart from a cycle; boxed, so that copying a step copies a reference.
    let parameter: ResolutionParameter?
    let containerType: Any.Type

    @usableFromInline
    init(
        manager: ObjectIdentifier, key: FactoryKey, parameter: ResolutionParameter?,
        containerType: Any.Type
    ) {
        (self.manager, self.key, self.parameter, self.containerType) = (
            manager, key, parameter, containerType
        )
    }

    /// Whether `other` is the same factory of the same container with an equal parameter, or
    /// one of a kind that is not equal to itself, as `other`'s is.
    /// Parameters that are not `Hashable` cannot be compared and never count as equal.
    func isSameResolution(as other: ResolutionStep) -> Bool {
        guard manager == other.manager, key == other.key else { return false }
        switch (parameter?.value, other.parameter?.value) {
        case (nil, nil):
            return true
        case (let mine?, let theirs?):
            guard let mine = mine as? AnyHashable, let theirs = theirs as? AnyHashable else {
                return false
            }
            // Values not equal to themselves (`Double.nan`) count as one, as they do in caches.
            return mine == theirs || (mine != mine && theirs != theirs)
        default:
            return false
        }
    }
}

extension ResolutionStep: CustomStringConvertible {
    /// `Container.api<API>`: container type, key and declared type.
    @usableFromInline
    var description: String {
        "\(containerType).\(key)"
    }

    /// `Container.user<User>(42)`: the description, with the parameter if there is one.
    var descriptionWithParameter: String {
        description + (parameter.map { "(\($0.value))" } ?? "")
    }
}

/// The parameter of a step on a resolution path.
@usableFromInline
final class ResolutionParameter {
    let value: Any

    @usableFromInline
    init(_ value: Any) {
        self.value = value
    }
}
