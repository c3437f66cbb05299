internal import CDepotAtomics

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A value guarded by a pthread mutex; `withLock` is the only way to reach it.
///
/// The mutex, the value and the generation share one allocation, and the value is reached
/// through a pointer, so `withLock` pays no dynamic exclusivity check (a class's stored `var`
/// would).
///
/// A versioned `Locked` also has a ``generation``: a number, unique in the process, that changes
/// whenever `withLock` runs, so code that read the value under the lock can tell later, without
/// the lock, whether it may have changed since. `withLockReading` is for bodies that only read.
// @unchecked Sendable: `state` is read and written only between `pthread_mutex_lock` and
// `pthread_mutex_unlock` on `mutex`, so no two threads touch it at once; `version` is written
// only under the mutex, and read and written with atomic operations.
final class Locked<State>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let state: UnsafeMutablePointer<State>
    private let version: UnsafeMutablePointer<UInt64>?
    /// The one allocation all three live in.
    private let base: UnsafeMutableRawPointer

    convenience init(_ initial: State) {
        self.init(initial, isVersioned: false)
    }

    /// Makes a `Locked` whose mutex and value share no cache line with another allocation: for
    /// one of several locks that different threads take at once (a shard).
    convenience init(alone initial: State) {
        self.init(initial, isVersioned: false, padding: 128)
    }

    /// Makes a `Locked` holding `initial`; a versioned one has a generation, and
    /// `sideWords` words (zero at first) beside it in the same allocation, for its owner to read
    /// and write atomically (``sideWords``).
    init(_ initial: consuming State, isVersioned: Bool, sideWords: Int = 0, padding: Int = 0) {
        // One allocation: the generation and side words, then (for a versioned one, 128 bytes
        // on, so never in their cache line: threads read them without the lock while another
        // takes it) the mutex, then the value; `padding` bytes before and after.
        let mutexOffset = isVersioned ? max(128, 8 * (1 + sideWords)) : padding
        let stateOffset = Self.offset(after: mutexOffset + MemoryLayout<pthread_mutex_t>.stride)
        let raw = allocateMemory(
            byteCount: stateOffset + MemoryLayout<State>.size + padding,
            alignment: max(MemoryLayout<pthread_mutex_t>.alignment, MemoryLayout<State>.alignment))
        if isVersioned {
            let words = raw.initializeMemory(as: UInt64.self, repeating: 0, count: 1 + sideWords)
            words.pointee = depot_next_generation()
            version = words
        } else {
            version = nil
        }
        // Error-checking: a thread that locks a `Locked` it already holds gets an error, which
        // `lock()` turns into a message, instead of hanging for ever.
        mutex = initializeMutex(at: raw + mutexOffset, recursive: false)
        base = raw
        state = (raw + stateOffset).bindMemory(to: State.self, capacity: 1)
        state.initialize(to: initial)
    }

    deinit {
        state.deinitialize(count: 1)
        pthread_mutex_destroy(mutex)
        deallocateMemory(base)
    }

    /// The current generation, read without the lock: it changes whenever `withLock` runs.
    var generation: UInt64 {
        depot_atomic_load(version!)
    }

    /// Takes a new generation without the lock, as `withLock` takes one: for a change that
    /// changes nothing under the lock (a lifetime scope's reused state, see
    /// `ContainerManager.init(reusing:of:)`). The generation is read and written atomically.
    func renewGeneration() {
        depot_atomic_store(version!, depot_next_generation())
    }

    /// Where the generation is kept, for a reader that holds this `Locked` alive by other means
    /// and reads the generation with `depot_atomic_load`.
    var generationPointer: UnsafeMutablePointer<UInt64> {
        version!
    }

    /// The words a versioned `Locked` keeps beside its generation for its owner, which reads
    /// and writes them with atomic operations.
    var sideWords: UnsafeMutablePointer<UInt64> {
        version! + 1
    }

    /// Runs `body` on the value without the lock: only in the owner's initialiser, before any
    /// other thread can reach this `Locked`.
    func withUnsharedValue(_ body: (inout State) -> Void) {
        body(&state.pointee)
    }

    /// `offset` rounded up to the value's alignment: where the value starts.
    private static func offset(after offset: Int) -> Int {
        let alignment = MemoryLayout<State>.alignment
        return (offset + alignment - 1) / alignment * alignment
    }

    /// Runs `body` with the value, under the lock; a versioned `Locked` takes a new generation
    /// before `body` runs.
    @inline(__always)
    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try withLockKeepingDropped(body)
    }

    /// ``withLock(_:)`` for every state: what `body` drops is released inside the lock.
    @inline(__always)
    fileprivate func withLockKeepingDropped<Result>(_ body: (inout State) throws -> Result)
        rethrows -> Result
    {
        lock()
        defer { pthread_mutex_unlock(mutex) }
        if let version {
            depot_atomic_store(version, depot_next_generation())
        }
        return try body(&state.pointee)
    }

    /// Runs `body`, which only reads the value (it is `inout` only to spare a copy), under the
    /// lock, with the generation then; the generation does not change.
    @inline(__always)
    func withLockReading<Result>(_ body: (inout State, UInt64) throws -> Result) rethrows
        -> Result
    {
        lock()
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state.pointee, version.map { depot_atomic_load($0) } ?? 0)
    }

    /// Blocks until `isDone`, which reads what the lock guards, is true: checked under the
    /// lock, and again each time `condition` is signalled; the lock is let go while blocked, so
    /// that the thread that makes `isDone` true can take it and signal.
    func wait(on condition: Condition, until isDone: () -> Bool) {
        lock()
        while !isDone() {
            pthread_cond_wait(condition.condition, mutex)
        }
        pthread_mutex_unlock(mutex)
    }

    @inline(__always)
    private func lock() {
        if pthread_mutex_lock(mutex) == EDEADLK {
            Self.failReentry()
        }
    }

    private static func failReentry() -> Never {
        fatalError(
            "Depot: a thread asked for a lock of Depot's that it already holds, which would hang "
                + "it for ever. Depot runs user code under its locks only in a custom scope's "
                + "ScopeStorage (value(for:), setValue(_:for:), removeAll(), and the deinits of "
                + "the values a storage lets go of there): that code must not resolve from the "
                + "same container, nor reset or register. Keep what a storage drops alive until "
                + "the call has returned, or resolve it elsewhere.")
    }
}

/// A state whose changes may let go of instances, closures or containers, whose last release can
/// run user code (a `deinit` that resolves from the same container): a change collects them in
/// ``dropped``, and `withLock` releases them after the lock is let go.
protocol DropsValues {
    /// What changes let go of since `withLock` last released them.
    var dropped: [Any] { get set }
    /// Whether ``dropped`` may hold a ``Disposal``: an instance table's does.
    static var dropsDisposals: Bool { get }
}

extension DropsValues {
    static var dropsDisposals: Bool { false }

    /// Keeps `value` alive until the lock is let go.
    mutating func drop(_ value: Any) {
        dropped.append(value)
    }

    /// What was dropped, if anything, leaving nothing: the common change drops nothing, and
    /// then the array is only looked at.
    @inline(__always)
    mutating func takeDropped() -> [Any]? {
        guard !dropped.isEmpty else { return nil }
        defer { dropped = [] }
        return dropped
    }
}

extension Locked where State: DropsValues {
    /// Runs `body` with the value, under the lock, as every `withLock` does; then releases what
    /// `body` dropped, after the lock is let go.
    @inline(__always)
    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        var dropped: [Any]?
        let result = try withLockKeepingDropped { state in
            defer { dropped = state.takeDropped() }
            return try body(&state)
        }
        // Released here, with the lock let go; instances with an `onDispose` closure are
        // disposed in a task of their own.
        if let dropped, State.dropsDisposals {
            Disposal.disposeDropped(dropped)
        }
        // Not a no-op for the optimiser: without it, every caller's withLock costs about 40
        // more instructions (callgrind, `request`).
        dropped = nil
        return result
    }
}
