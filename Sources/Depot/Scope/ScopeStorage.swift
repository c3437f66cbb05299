/// Where a ``Scope/Custom`` scope keeps its instances: a storage policy written by the user.
///
/// Depot calls a storage only under the lock of the container (or singleton storage) that owns
/// it, and runs a factory's closure once per key at a time: a storage needs no locking.
public protocol ScopeStorage: AnyObject {
    /// The value kept for `key`, or `nil` to have Depot create a new instance (and pass it to
    /// ``setValue(_:for:)``).
    func value(for key: ScopeKey) -> Any?

    /// Keeps `value`, just created for `key`.
    ///
    /// With ``Scope/Custom/Reference/strong`` the value is the instance; with
    /// ``Scope/Custom/Reference/weak`` it is a box that holds the instance weakly. Either way,
    /// return it unchanged from ``value(for:)``.
    func setValue(_ value: Any, for key: ScopeKey)

    /// Forgets every value: called when the scope is reset.
    func removeAll()
}

/// Identifies one instance in a ``ScopeStorage``: the container, the factory and, for a factory
/// with `scopeOnParameters`, the parameter.
// @unchecked Sendable: the metatypes are immutable and only printed.
public struct ScopeKey: Hashable, @unchecked Sendable, CustomStringConvertible {
    let instance: InstanceKey
    // Only for the description; not part of the key's identity.
    private let containerType: Any.Type

    init(_ instance: InstanceKey, step: ResolutionStep) {
        self.instance = instance
        containerType = step.containerType
    }

    /// The factory, as traces and diagnostics name it: `Container.cat<Cat>`.
    public var description: String { "\(containerType).\(instance.factory)" }

    public static func == (lhs: ScopeKey, rhs: ScopeKey) -> Bool {
        lhs.instance == rhs.instance
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(instance)
    }
}

extension Scope {
    /// A scope whose storage policy you write, as DITranquillity's `DIStorage` and Swinject's
    /// `InstanceStorage` allow.
    public final class Custom: Scope, @unchecked Sendable {
        /// How the storage holds instances.
        public enum Reference: Sendable {
            /// The storage gets the instance and keeps it as long as it keeps the value.
            case strong
            /// The storage gets a box that holds the instance weakly: the instance goes once
            /// nobody else holds it. A value type cannot be held weakly: for one the factory
            /// acts as ``Scope/unique``.
            case weak
        }

        /// How many storages the scope has.
        public enum Placement: Sendable {
            /// One storage per container.
            case container
            /// One storage for the process (one per test under DepotTesting's trait), with
            /// keys that tell containers of different types apart.
            case process
        }

        /// Makes a scope named `name` whose instances live in storages that `makeStorage` makes.
        ///
        /// - Parameters:
        ///   - name: the name traces and diagnostics show.
        ///   - reference: whether the storage gets instances or weak boxes of them.
        ///   - placement: one storage per container, or one for the process.
        ///   - makeStorage: makes an empty storage; by default one that keeps one value per key
        ///     until reset.
        public init(
            name: String, reference: Reference = .strong, placement: Placement = .container,
            makeStorage: @escaping @Sendable () -> any ScopeStorage = { KeepOneStorage() }
        ) {
            let weak = reference == .weak
            super.init(
                placement: placement == .container ? .container : .process,
                holdsWeakly: weak, name: name,
                custom: CustomStorage(makeStorage: makeStorage))
        }
    }
}

/// The default storage of a ``Scope/Custom`` scope: one value per key until reset.
@usableFromInline
final class KeepOneStorage: ScopeStorage {
    private var values: [ScopeKey: Any] = [:]

    @usableFromInline init() {}

    @usableFromInline func value(for key: ScopeKey) -> Any? { values[key] }
    @usableFromInline func setValue(_ value: Any, for key: ScopeKey) { values[key] = value }
    @usableFromInline func removeAll() { values.removeAll() }
}

/// What a weak ``Scope/Custom`` scope gives its storage: the instance, held weakly.
final class WeakBox {
    weak var object: AnyObject?
    init(_ object: AnyObject) { self.object = object }
}

// How an instance table keeps what a custom scope stores.
extension InstanceTable {
    /// What a custom scope's storage gets: `value`, boxed for a weak scope (`nil` for a value
    /// type, which a weak scope does not keep).
    func storable(_ value: Any, in scope: Scope) -> Any? {
        guard scope.holdsWeakly else { return value }
        return asObject(value).map(WeakBox.init)
    }

    /// The value a custom scope's storage keeps for `key`, if Depot gave it.
    mutating func storedValue(
        for key: InstanceKey, in scope: Scope, custom: Scope.CustomStorage, step: ResolutionStep
    ) -> Any? {
        guard let value = storage(of: scope, custom).value(for: ScopeKey(key, step: step)) else {
            return nil
        }
        guard scope.holdsWeakly else { return value }
        guard let box = value as? WeakBox else {
            fatalError(
                "Depot: the storage of scope \(scope) returned a \(Swift.type(of: value)) for "
                    + "\(step), not the value Depot gave it. A ScopeStorage must return what "
                    + "setValue(_:for:) received for that key, or nil.")
        }
        return box.object
    }

    mutating func storage(of scope: Scope, _ custom: Scope.CustomStorage) -> any ScopeStorage {
        if let storage = storages[ObjectIdentifier(scope)] { return storage }
        let storage = custom.makeStorage()
        storages[ObjectIdentifier(scope)] = storage
        return storage
    }
}
