/// Identifies a factory within a container: the key the factory was declared with (its
/// property's name, through `#function`) and the type it makes.
struct FactoryKey: Hashable, Sendable {
    /// The address of the key's characters: every use of one factory declaration shares one
    /// string literal, so the address identifies it without reading the characters.
    private let name: UInt
    private let type: ObjectIdentifier

    init(name: StaticString, type: Any.Type) {
        self.name =
            name.hasPointerRepresentation
            ? UInt(bitPattern: name.utf8Start) : UInt(name.unicodeScalar.value)
        self.type = ObjectIdentifier(type)
    }
}

/// Identifies one cached instance: the factory, whose instances (the container type, for
/// process-wide scopes) and which parameter.
struct InstanceKey: Hashable {
    let factory: FactoryKey
    let owner: ObjectIdentifier?
    let parameter: AnyHashable?
}
