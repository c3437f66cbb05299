/// The parameter of a factory that caches one instance per parameter value, compared as its own
/// type: `AnyHashable`'s comparison looks its box's type up at run time each time, which a
/// parameter type whose values hash alike makes quadratic.
@usableFromInline
class ParameterKey: @unchecked Sendable, CustomStringConvertible {
    /// The value's hash, worked out once: a table hashes the keys it probes past.
    let hash: Int
    /// How an instance table keeps the instances of this key's type: in a run, a `Dictionary`
    /// of it; `nil` for a key kept with the keys without a parameter (a value not equal to
    /// itself).
    @usableFromInline let run: ParameterRun.Access?

    /// Whether an instance table keeps this key in a run.
    var hasRun: Bool { run != nil }

    @usableFromInline
    init(hash: Int, run: ParameterRun.Access?) {
        self.hash = hash
        self.run = run
    }

    /// Whether `other` wraps an equal value.
    func isEqual(to other: ParameterKey) -> Bool {
        preconditionFailure("Internal inconsistency: an untyped ParameterKey")
    }

    /// The value, as a message spells it.
    @usableFromInline var description: String { "" }

    /// A parameter of type `Value`.
    // @unchecked Sendable: the value is only hashed and compared, never handed out.
    @usableFromInline
    final class Typed<Value: Hashable>: ParameterKey, @unchecked Sendable {
        @usableFromInline let value: Value

        @usableFromInline
        init(_ value: Value, run: ParameterRun.Access?) {
            self.value = value
            super.init(hash: value.hashValue, run: run)
        }

        /// The key of `parameter`, a `Value`, compiled for `Value` where the factory is
        /// declared, with the run functions compiled there too.
        ///
        /// Values not equal to themselves (`Double.nan`) share one key: each would otherwise be
        /// kept apart, never found again, for as long as its scope lasts.
        @inlinable
        static func make(_ parameter: Any) -> ParameterKey {
            let value = parameter as! Value
            guard value == value else {
                return Typed<NotEqualToItself>(NotEqualToItself(), run: nil)
            }
            return Typed(value, run: ParameterRun.Of<Value>.access)
        }

        @usableFromInline override var description: String { "\(value)" }

        override func isEqual(to other: ParameterKey) -> Bool {
            guard let other = other as? Self else { return false }
            return value == other.value
        }
    }
}

/// The parameter that stands for every parameter not equal to itself.
@usableFromInline
struct NotEqualToItself: Hashable, CustomStringConvertible {
    @usableFromInline
    init() {}

    @usableFromInline var description: String { "a value not equal to itself" }
}

/// The instances an instance table keeps for one factory, one per parameter value, in a
/// `Dictionary` of the parameter's own type: a type whose values hash alike then costs the
/// table what it costs a `Dictionary`, which compares keys inline. Shared by copies of the
/// table (`push()`'s snapshot) until one of them changes it.
@usableFromInline
class ParameterRun {
    @usableFromInline typealias Slot = InstanceTable.Slot
    /// A slot and the key it is kept for.
    @usableFromInline typealias Entry = (parameter: ParameterKey, slot: Slot)

    @usableFromInline
    init() {}

    /// The slots kept, with their keys.
    var entries: [Entry] { preconditionFailure("Internal inconsistency: an untyped ParameterRun") }

    /// How many slots the run has room for.
    var capacity: Int { preconditionFailure("Internal inconsistency: an untyped ParameterRun") }

    /// The functions of one parameter type, compiled for it where the factory is declared (a
    /// generic class's own methods run uncompiled for the type they are called with): making
    /// its keys, and finding and changing the slots of its runs.
    // @unchecked Sendable: the functions capture nothing but the parameter's type, to hash and
    // compare its values on the resolving thread, as a `ParameterKey` and a `Dictionary` do.
    @usableFromInline
    struct Access: @unchecked Sendable {
        /// The key of a parameter of this type.
        @usableFromInline let makeKey: (Any) -> ParameterKey
        /// The slot `run` keeps for the key's value, if any.
        let find: (ParameterKey, ParameterRun) -> Slot?
        /// Keeps a slot for the key's value (none: removes it), making `run` if there is none
        /// and leaving none if it ends empty; returns the slot it replaces.
        let swap: (ParameterKey, inout ParameterRun?, Slot?) -> Slot?

        @usableFromInline
        init(
            makeKey: @escaping (Any) -> ParameterKey,
            find: @escaping (ParameterKey, ParameterRun) -> Slot?,
            swap: @escaping (ParameterKey, inout ParameterRun?, Slot?) -> Slot?
        ) {
            self.makeKey = makeKey
            self.find = find
            self.swap = swap
        }
    }

    /// The run of a parameter of type `Value`.
    @usableFromInline
    final class Of<Value: Hashable>: ParameterRun {
        @usableFromInline var slots = [Value: Entry]()

        @usableFromInline
        override init() {}

        @inlinable
        static var access: Access {
            Access(
                makeKey: { ParameterKey.Typed<Value>.make($0) },
                find: { key, run in
                    (run as! Of).slots[value(of: key)]?.slot
                },
                swap: { key, run, slot in
                    var own = run.map { $0 as! Of } ?? Of()
                    // The table's reference is let go first, so that `own` is unique unless a
                    // snapshot shares the run, which then keeps its copy.
                    run = nil
                    if !isKnownUniquelyReferenced(&own) { own = own.copied() }
                    let value = value(of: key)
                    let replaced =
                        if let slot {
                            own.slots.updateValue((key, slot), forKey: value)
                        } else {
                            own.slots.removeValue(forKey: value)
                        }
                    own.giveRoomBack()
                    run = own.slots.isEmpty ? nil : own
                    return replaced?.slot
                })
        }

        /// The value of `key`, a key of this run.
        @inlinable
        static func value(of key: ParameterKey) -> Value {
            (key as! ParameterKey.Typed<Value>).value
        }

        @usableFromInline
        func copied() -> Of {
            let copy = Of()
            copy.slots = slots
            return copy
        }

        /// A run left a quarter full gives room back, so that a burst of parameters that a
        /// sweep or reset then removes does not keep its peak size for ever.
        @usableFromInline
        func giveRoomBack() {
            guard slots.capacity > 64, slots.count * 4 < slots.capacity else { return }
            slots = Dictionary(uniqueKeysWithValues: slots.map { $0 })
        }

        override var entries: [Entry] { Array(slots.values) }

        override var capacity: Int { slots.capacity }
    }
}
