/// Identifies a factory within a container: the key the factory was declared with (its
/// property's name, through `#function`) and the type it makes.
@usableFromInline
struct FactoryKey: Hashable, Sendable, TableKey {
    /// What identifies the name: see ``address(of:)``.
    @usableFromInline let nameAddress: UInt
    /// The type the factory makes.
    @usableFromInline let valueType: Any.Type
    /// The name's length in UTF-8 code units, to spell it in messages; `UInt32.max` for a
    /// `StaticString` held as one scalar, whose ``nameAddress`` is the scalar's value. Kept
    /// instead of the `StaticString`, whose 17 bytes would pad every key to 32.
    @usableFromInline let nameLength: UInt32
    /// A hash of the name's characters and of the declaring module's name, so that one
    /// declaration at two addresses (compiled into two images) hashes alike, and two modules'
    /// declarations of one name apart.
    @usableFromInline let nameHash: UInt32

    /// The key of the factory `name`, making `type`, declared in the module that `file` (a
    /// `#fileID`, `Module/File.swift`) names, if any.
    @inlinable
    @inline(__always)
    init(name: StaticString, type: Any.Type, file: StaticString? = nil) {
        valueType = type
        guard name.hasPointerRepresentation else {
            nameAddress = UInt(name.unicodeScalar.value)
            (nameLength, nameHash) = (.max, UInt32(truncatingIfNeeded: nameAddress))
            return
        }
        let (start, count) = (name.utf8Start, name.utf8CodeUnitCount)
        nameAddress = UInt(bitPattern: start)
        nameLength = UInt32(truncatingIfNeeded: count)
        // FNV-1a over every character: names that differ anywhere hash apart, as generated ones
        // (`flag001Enabled`, `flag002Enabled`...) do in a single character. Inlined where the
        // name is a literal (a factory's `#function`), it is worked out when compiling.
        var hash: UInt32 = 0x811C_9DC5
        for index in 0..<count { hash = (hash ^ UInt32(start[index])) &* 0x0100_0193 }
        // The declaring module too: two modules that declare one name and type are two keys;
        // one declaration compiled into two images is one.
        if let file, file.hasPointerRepresentation {
            let module = file.utf8Start
            var index = 0
            while index < file.utf8CodeUnitCount, module[index] != UInt8(ascii: "/") {
                hash = (hash ^ UInt32(module[index])) &* 0x0100_0193
                index += 1
            }
        }
        nameHash = hash
    }

    /// What identifies a key's string literal: the address of its characters (every use of one
    /// factory declaration shares its literal), or the value of a literal held as one scalar.
    // This file is the one place Depot turns a pointer into a number and back: the address is
    // compared and hashed, and read through only to spell the name (see `literal`).
    @inlinable
    static func address(of name: StaticString) -> UInt {
        name.hasPointerRepresentation
            ? UInt(bitPattern: name.utf8Start) : UInt(name.unicodeScalar.value)
    }

    @inlinable
    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.nameAddress == rhs.nameAddress
            // One literal named in two modules' keys (an explicit `file:`) is two keys.
            ? lhs.valueType == rhs.valueType && lhs.nameHash == rhs.nameHash
            // Another address: the same name only if compiled elsewhere (see hasSameCharacters).
            : lhs.nameHash == rhs.nameHash && lhs.valueType == rhs.valueType
                && lhs.hasSameCharacters(as: rhs)
    }

    /// Whether both names are literals with the same characters at different addresses: one
    /// declaration compiled into two modules (an inlined getter, a dynamic framework).
    @usableFromInline
    @inline(never)
    func hasSameCharacters(as other: Self) -> Bool {
        guard nameLength == other.nameLength, nameLength != .max else { return false }
        // Safe: both addresses start a literal's characters, `nameLength` long (see `literal`).
        let count = Int(nameLength)
        let mine = UnsafeBufferPointer(
            start: UnsafePointer<UInt8>(bitPattern: nameAddress), count: count)
        let theirs = UnsafeBufferPointer(
            start: UnsafePointer<UInt8>(bitPattern: other.nameAddress), count: count)
        return mine.elementsEqual(theirs)
    }

    /// The key's bit, one of 32, in a container's filter of registered keys.
    @inlinable
    var filterBit: UInt64 {
        let mixed =
            UInt64(
                truncatingIfNeeded: UInt(nameHash) &* 31
                    &+ UInt(bitPattern: ObjectIdentifier(valueType)))
            &* 0x9E37_79B9_7F4A_7C15
        return ContainerManager.Flags.firstKeyBit << (mixed >> 59)
    }

    /// Both parts, in one word.
    @inlinable
    var tableHash: UInt { UInt(nameHash) &* 31 &+ UInt(bitPattern: ObjectIdentifier(valueType)) }

    @inlinable
    func hash(into hasher: inout Hasher) {
        hasher.combine(tableHash)
    }
}

/// Identifies one cached instance: the factory, whose instances (the container type, for
/// process-wide scopes) and which parameter.
@usableFromInline
struct InstanceKey: Hashable, Sendable, TableKey {
    @usableFromInline let factory: FactoryKey
    @usableFromInline let owner: ObjectIdentifier?
    /// A class reference, so that a key without a parameter is plain data.
    @usableFromInline let parameter: ParameterKey?

    @usableFromInline
    init(factory: FactoryKey, owner: ObjectIdentifier?, parameter: ParameterKey?) {
        self.factory = factory
        self.owner = owner
        self.parameter = parameter
    }

    /// The key of the factory and owner, for every parameter.
    var ofFactory: InstanceKey { InstanceKey(factory: factory, owner: owner, parameter: nil) }

    /// The identity words of the factory and owner, and the parameter's own hash.
    var tableHash: UInt {
        var hash = factory.tableHash
        if let owner { hash = hash &* 31 &+ UInt(bitPattern: owner) }
        if let parameter { hash = hash &* 31 &+ UInt(bitPattern: parameter.hash) }
        return hash
    }

    @usableFromInline
    func hash(into hasher: inout Hasher) {
        hasher.combine(tableHash)
    }

    @usableFromInline
    static func == (lhs: InstanceKey, rhs: InstanceKey) -> Bool {
        guard lhs.factory == rhs.factory, lhs.owner == rhs.owner else { return false }
        switch (lhs.parameter, rhs.parameter) {
        case (nil, nil): return true
        case (let left?, let right?): return left === right || left.isEqual(to: right)
        default: return false
        }
    }
}

extension FactoryKey: CustomStringConvertible {
    /// The key as declared: `api`.
    @usableFromInline
    var literal: String {
        guard nameLength != .max else {
            return Unicode.Scalar(UInt32(truncatingIfNeeded: nameAddress)).map(String.init) ?? ""
        }
        // Safe: `nameAddress` is the start of a `StaticString`'s characters, `nameLength` long.
        // A `StaticString` is made only from a literal, whose characters the compiler puts in
        // the binary's constant data, where they stay, unchanged, for the life of the process.
        let characters = UnsafeBufferPointer(
            start: UnsafePointer<UInt8>(bitPattern: nameAddress), count: Int(nameLength))
        return String(decoding: characters, as: UTF8.self)
    }

    /// `key<Type>`, `key<any Protocol>` for an existential.
    @usableFromInline var description: String { "\(literal)<\(typeName)>" }

    /// The factory's type as its declaration spells it: `API`, `any APIClient`.
    var typeName: String {
        let name = "\(valueType)"
        // An existential's metatype is a protocol's: `APIClient.Protocol`. `Any` and
        // `AnyObject` are spelled without `any`.
        let isExistential = "\(type(of: valueType))".hasSuffix(".Protocol")
        return isExistential && name != "Any" && name != "AnyObject" ? "any " + name : name
    }
}

extension InstanceKey: CustomStringConvertible {
    /// `key<Type>`, and `key<Type>(parameter)` for one kept per parameter.
    @usableFromInline
    var description: String {
        factory.description + (parameter.map { "(\($0))" } ?? "")
    }
}

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

/// A step as a set of a path's steps holds it: equal to another when it is the same
/// resolution (``ResolutionStep/isSameResolution(as:)``), cast and hashed once, when made.
struct PathKey: Hashable {
    let step: ResolutionStep
    /// The parameter; `nil` without one, or for a value not equal to itself, which is the same
    /// resolution as another such value (`Double.nan`), as in caches. A factory's steps all
    /// have a parameter, or none.
    private let parameter: AnyHashable?
    /// The hash of the parameter: a key is compared and hashed without `AnyHashable`'s casts.
    private let parameterHash: Int

    /// The key of `step`; `nil` if its parameter is not `Hashable`: never the same resolution
    /// as another, such a step is on no cycle.
    init?(_ step: ResolutionStep) {
        self.step = step
        guard let boxed = step.parameter else {
            (parameter, parameterHash) = (nil, 0)
            return
        }
        guard let hashable = boxed.value as? AnyHashable else { return nil }
        parameter = hashable == hashable ? hashable : nil
        parameterHash = parameter?.hashValue ?? 0
    }

    static func == (lhs: PathKey, rhs: PathKey) -> Bool {
        guard lhs.parameterHash == rhs.parameterHash, lhs.step.key == rhs.step.key,
            lhs.step.manager == rhs.step.manager
        else { return false }
        // One step's key, or another's of the same parameter box: equal without comparing.
        return lhs.step.parameter === rhs.step.parameter || lhs.parameter == rhs.parameter
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(step.manager)
        hasher.combine(step.key)
        hasher.combine(parameterHash)
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
