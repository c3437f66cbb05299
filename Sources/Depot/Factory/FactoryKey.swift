/// Identifies a factory within a container: the key the factory was declared with (its
/// property's name, through `#function`) and the type it makes.
@usableFromInline
struct FactoryKey: Hashable, Sendable {
    /// The address of the key's characters: every use of one factory declaration shares one
    /// string literal, so the address identifies it without reading the characters.
    @usableFromInline let name: UInt
    @usableFromInline let type: ObjectIdentifier

    @inlinable
    init(name: StaticString, type: Any.Type) {
        self.init(name: Self.address(of: name), type: ObjectIdentifier(type))
    }

    @inlinable
    init(name: UInt, type: ObjectIdentifier) {
        self.name = name
        self.type = type
    }

    /// What identifies a key's string literal: its address, or a one-character literal's value.
    @inlinable
    static func address(of name: StaticString) -> UInt {
        name.hasPointerRepresentation
            ? UInt(bitPattern: name.utf8Start) : UInt(name.unicodeScalar.value)
    }

    /// Dictionaries and sets hash a key through this, not through `Hasher`: a key is two
    /// addresses that nobody outside the process chooses, so a multiply-and-fold mix of them is
    /// enough, at a fraction of SipHash's cost. (`_rawHashValue(seed:)` is the standard
    /// library's customisation point for exactly this; `hash(into:)` stays as synthesised.)
    @usableFromInline
    func _rawHashValue(seed: Int) -> Int {
        Int(bitPattern: HashMix.mix(HashMix.mix(UInt(bitPattern: seed), name), type))
    }
}

/// A cheap mixing of machine words into a hash, for keys made of addresses.
enum HashMix {
    /// Mixes `word` into `hash`: multiplied by a 64-bit odd constant, its high half folded
    /// into the low one, so that the low bits (which pick a dictionary bucket) depend on every
    /// bit.
    @inline(__always)
    static func mix(_ hash: UInt, _ word: UInt) -> UInt {
        let product = (hash ^ word) &* 0x9E37_79B9_7F4A_7C15
        return product ^ (product >> 32)
    }

    @inline(__always)
    static func mix(_ hash: UInt, _ word: ObjectIdentifier) -> UInt {
        mix(hash, UInt(bitPattern: word))
    }
}

/// Identifies one cached instance: the factory, whose instances (the container type, for
/// process-wide scopes) and which parameter.
@usableFromInline
struct InstanceKey: Hashable, Sendable {
    @usableFromInline let factory: FactoryKey
    @usableFromInline let owner: ObjectIdentifier?
    /// A class reference, so that a key without a parameter is plain data: copying and comparing
    /// it calls no value witness.
    @usableFromInline let parameter: ParameterKey?

    @usableFromInline
    init(factory: FactoryKey, owner: ObjectIdentifier?, parameter: ParameterKey?) {
        self.factory = factory
        self.owner = owner
        self.parameter = parameter
    }

    // Hashes only what is there: most keys have neither owner nor parameter.
    @usableFromInline
    func hash(into hasher: inout Hasher) {
        hasher.combine(factory.name)
        hasher.combine(factory.type)
        if let owner { hasher.combine(owner) }
        if let parameter { hasher.combine(parameter.value) }
    }

    /// What dictionaries hash: the factory key's hash, mixed with the owner's address and the
    /// parameter's own hash, if any.
    @usableFromInline
    func _rawHashValue(seed: Int) -> Int {
        var hash = UInt(bitPattern: factory._rawHashValue(seed: seed))
        if let owner { hash = HashMix.mix(hash, owner) }
        if let parameter { hash = HashMix.mix(hash, UInt(bitPattern: parameter.value.hashValue)) }
        return Int(bitPattern: hash)
    }

    @usableFromInline
    static func == (lhs: InstanceKey, rhs: InstanceKey) -> Bool {
        guard lhs.factory == rhs.factory, lhs.owner == rhs.owner else { return false }
        switch (lhs.parameter, rhs.parameter) {
        case (nil, nil): return true
        case (let left?, let right?): return left.value == right.value
        default: return false
        }
    }
}

/// The parameter of a factory that caches one instance per parameter value.
@usableFromInline
final class ParameterKey: Sendable {
    // The value is only hashed and compared, never handed out.
    nonisolated(unsafe) let value: AnyHashable

    /// Wraps `parameter`, which must be Hashable (`scopeOnParameters` exists only then).
    @usableFromInline
    init?(_ parameter: Any) {
        guard let value = parameter as? AnyHashable else { return nil }
        self.value = value
    }
}

extension FactoryKey: CustomStringConvertible {
    /// The key as declared, read back from its string literal: `api`.
    var literal: String {
        // Unicode scalar keys (a one-character literal) are stored as their value, below any
        // address; string literals are stored as the address of their NUL-terminated bytes.
        name <= 0x10FFFF
            ? String(Character(Unicode.Scalar(UInt32(name)) ?? "?"))
            : String(cString: UnsafePointer<CChar>(bitPattern: name)!)
    }

    /// The type the factory declares.
    var valueType: Any.Type { unsafeBitCast(type, to: Any.Type.self) }

    /// `key<Type>`.
    @usableFromInline var description: String { "\(literal)<\(valueType)>" }
}

extension InstanceKey: CustomStringConvertible {
    /// `key<Type>`, and `key<Type>(parameter)` for one kept per parameter.
    @usableFromInline
    var description: String {
        factory.description + (parameter.map { "(\($0.value.base))" } ?? "")
    }
}
