import Atomics

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

// Depot's one lock type, written as swift-nio's `NIOLock` is: the value and its pthread mutex
// share one `ManagedBuffer` allocation, every OS call is in this file, and each return code is
// checked. The unsafe pointers below never leave it: `withLock` hands its body an `inout`
// value, and `word` is an `AtomicWord`, whose address no other file sees.

/// A value guarded by a pthread mutex; `withLock` is the only way to reach it.
///
/// The mutex is error-checking: a thread that asks for a `Locked` it already holds stops with a
/// message instead of hanging for ever. Copies share the value and the mutex.
// @unchecked Sendable: the value is read and written only between `pthread_mutex_lock` and
// `pthread_mutex_unlock` of the mutex beside it.
struct Locked<State>: @unchecked Sendable {
    fileprivate let storage: LockStorage<State>

    /// Makes a `Locked` of the value `initial` makes: made in place, not copied in (a
    /// container's state is large).
    init(_ initial: @autoclosure () -> State, recursive: Bool = false) {
        storage = .make({ _ in initial() }, recursive: recursive)
    }

    /// Makes a `Locked` of the value `initial` makes from ``word``.
    init(beside initial: (AtomicWord) -> State) {
        storage = .make(initial, recursive: false)
    }

    /// An atomic word beside the value, in the same allocation, zero at first (``AtomicWord``).
    var word: AtomicWord { AtomicWord(storage.word) }

    /// Identifies the value: the same for every copy of this `Locked`.
    var id: ObjectIdentifier { ObjectIdentifier(storage) }

    /// Runs `body` with the value, under the lock.
    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try storage.withLock(body)
    }

    /// Runs `body` with the value, under the lock, for a section that only reads it: one that
    /// changes nothing drops nothing, so nothing is released after it.
    func reading<Result>(_ body: (State) -> Result) -> Result {
        storage.withLock { body($0) }
    }

    /// Blocks until `isDone` is true of the value: checked under the lock, and again each time
    /// `condition` is signalled; the lock is let go while blocked, so that the thread that makes
    /// `isDone` true can take it and signal.
    func wait(on condition: Condition, until isDone: (State) -> Bool) {
        storage.withMutex { mutex in
            LockStorage<State>.lock(mutex, reentry: LockStorage<State>.storageReentry)
            while !storage.withUnsafeMutablePointerToHeader({ isDone($0.pointee) }) {
                condition.wait(with: mutex)
            }
            LockStorage<State>.unlock(mutex)
        }
    }
}

/// The atomic word beside a ``Locked``'s value (``Locked/word``), for what a lock's holders
/// publish to readers that take no lock: its address, which stays in this file, is valid while
/// the `Locked` (any copy) is alive, so whoever holds an `AtomicWord` must hold its `Locked`.
// @unchecked Sendable: an atomic word is made to be shared between threads.
@usableFromInline
struct AtomicWord: @unchecked Sendable {
    @usableFromInline let atomic: UnsafeAtomic<UInt64>

    fileprivate init(_ atomic: UnsafeAtomic<UInt64>) {
        self.atomic = atomic
    }

    /// The word, and what was written before the store that set it.
    @inlinable
    func load() -> UInt64 {
        atomic.load(ordering: .acquiring)
    }

    /// The word alone, for a reader that needs nothing written before it (or holds the lock).
    @inlinable
    func loadRelaxed() -> UInt64 {
        atomic.load(ordering: .relaxed)
    }

    /// Sets the word, publishing what was written before it.
    func store(_ value: UInt64) {
        atomic.store(value, ordering: .releasing)
    }
}

/// What follows the value in its allocation: the mutex, first, and the atomic word.
fileprivate struct LockTail {
    var mutex: pthread_mutex_t
    var word: UnsafeAtomic<UInt64>.Storage
}

/// The value and its mutex, in one allocation.
fileprivate final class LockStorage<State>: ManagedBuffer<State, LockTail> {
    static func make(_ initial: (AtomicWord) -> State, recursive: Bool) -> LockStorage<State> {
        let buffer = create(minimumCapacity: 1) { buffer in
            // Initialised before the value, which may keep it.
            let storage = unsafeDowncast(buffer, to: LockStorage<State>.self)
            storage.withUnsafeMutablePointerToElements {
                $0.pointer(to: \.word)!.initialize(to: .init(0))
            }
            return initial(AtomicWord(storage.word))
        }
        // `create` makes an instance of the class it is called on: this one.
        let storage = unsafeDowncast(buffer, to: LockStorage<State>.self)
        storage.withMutex { mutex in
            var attributes = pthread_mutexattr_t()
            check(pthread_mutexattr_init(&attributes), "pthread_mutexattr_init")
            let kind = recursive ? PTHREAD_MUTEX_RECURSIVE : PTHREAD_MUTEX_ERRORCHECK
            check(pthread_mutexattr_settype(&attributes, Int32(kind)), "pthread_mutexattr_settype")
            check(pthread_mutex_init(mutex, &attributes), "pthread_mutex_init")
            check(pthread_mutexattr_destroy(&attributes), "pthread_mutexattr_destroy")
        }
        return storage
    }

    deinit {
        // The header (the value) is deinitialised by `ManagedBuffer`; the mutex is ours (the
        // word needs no deinitialising).
        withMutex { Self.check(pthread_mutex_destroy($0), "pthread_mutex_destroy") }
    }

    /// The atomic word: safe to use while this storage is alive, as its tail never moves.
    var word: UnsafeAtomic<UInt64> {
        withUnsafeMutablePointerToElements { tail in
            UnsafeAtomic(at: tail.pointer(to: \.word)!)
        }
    }

    /// Calls `body` with the mutex, the tail's first field (so at the tail's address).
    @inline(__always)
    func withMutex<Result>(
        _ body: (UnsafeMutablePointer<pthread_mutex_t>) throws -> Result
    ) rethrows -> Result {
        try withUnsafeMutablePointerToElements { tail in
            try body(UnsafeMutableRawPointer(tail).assumingMemoryBound(to: pthread_mutex_t.self))
        }
    }

    @inline(__always)
    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try withMutex { mutex in
            Self.lock(mutex, reentry: Self.storageReentry)
            defer { Self.unlock(mutex) }
            return try withUnsafeMutablePointerToHeader { try body(&$0.pointee) }
        }
    }

    /// Takes the lock until ``unlock()``: for a ``Mutex``, a gate held across a call.
    fileprivate func lock(reentry message: @autoclosure () -> String) {
        withMutex { Self.lock($0, reentry: message()) }
    }

    fileprivate func unlock() {
        withMutex { Self.unlock($0) }
    }

    static func lock(
        _ mutex: UnsafeMutablePointer<pthread_mutex_t>, reentry message: @autoclosure () -> String
    ) {
        // A free mutex is taken by `trylock`, which skips the owner check; one that is held, by
        // another thread or by this one, goes to `lock`, which tells the two apart.
        if pthread_mutex_trylock(mutex) == 0 { return }
        let code = pthread_mutex_lock(mutex)
        if code == EDEADLK { fatalError(message()) }
        check(code, "pthread_mutex_lock")
    }

    static func unlock(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) {
        check(pthread_mutex_unlock(mutex), "pthread_mutex_unlock")
    }

    static func check(_ code: Int32, _ call: StaticString) {
        if code != 0 { fatalError("Depot: \(call) failed with error \(code)") }
    }

    static var storageReentry: String {
        "Depot: a thread asked for a lock of Depot's that it already holds, which would hang "
            + "it for ever. Depot runs user code under its locks only in a custom scope's "
            + "ScopeStorage (value(for:), setValue(_:for:), removeAll(), and the deinits of "
            + "the values a storage lets go of there): that code must not resolve from the "
            + "same container, nor reset or register. Keep what a storage drops alive until "
            + "the call has returned, or resolve it elsewhere."
    }
}

/// A gate one thread takes and later lets go of, around user code: a `Lazy`'s first resolve,
/// a container's `autoRegister()` (recursive, so that it may resolve from inside).
final class Mutex: Sendable {
    private let locked: Locked<Void>

    init(recursive: Bool = false) {
        locked = Locked((), recursive: recursive)
    }

    func lock() {
        locked.storage.lock(
            reentry: "Depot: a thread asked again for a gate it holds while it runs a factory, "
                + "which would hang it for ever: a Lazy, Provider or lazily injected property "
                + "read again from inside its own factory (or a deinit that factory triggers). "
                + "Break the cycle, e.g. by reading it after the factory has returned.")
    }

    func unlock() { locked.storage.unlock() }
}

/// A pthread condition variable, for threads that wait under a lock of Depot's until another
/// thread changes what that lock guards (see `Locked.wait(on:until:)`).
// @unchecked Sendable: a pthread condition variable is made to be shared between threads; it
// lives in its own `ManagedBuffer` allocation, which never moves.
@usableFromInline
final class Condition: @unchecked Sendable {
    private let storage = ManagedBuffer<Void, pthread_cond_t>.create(minimumCapacity: 1) {
        _ in
    }

    init() { call({ pthread_cond_init($0, nil) }, "pthread_cond_init") }

    deinit { call({ pthread_cond_destroy($0) }, "pthread_cond_destroy") }

    /// Wakes every thread waiting on this condition; called with the lock they wait with held.
    func broadcast() { call({ pthread_cond_broadcast($0) }, "pthread_cond_broadcast") }

    fileprivate func wait(with mutex: UnsafeMutablePointer<pthread_mutex_t>) {
        call({ pthread_cond_wait($0, mutex) }, "pthread_cond_wait")
    }

    /// Calls `function` with the condition variable, stopping the process if it fails.
    private func call(
        _ function: (UnsafeMutablePointer<pthread_cond_t>) -> Int32, _ name: StaticString
    ) {
        storage.withUnsafeMutablePointerToElements { LockStorage<Void>.check(function($0), name) }
    }
}

extension Locked where State: DropsValues {
    /// Runs `body` with the value, under the lock, as every `withLock` does; then releases what
    /// `body` dropped after the lock is let go, disposing in a task of their own the instances
    /// that have an `onDispose` closure.
    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        var dropped: [Any] = []
        let result = try storage.withLock { state in
            defer {
                swap(&dropped, &state.dropped)
                assert(state.isPublished, "Depot: a change of state not made by change(_:)")
            }
            return try body(&state)
        }
        if !dropped.isEmpty { Disposal.disposeDropped(dropped) }
        return result
    }
}
