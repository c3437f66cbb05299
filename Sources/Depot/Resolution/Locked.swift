#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A value guarded by a pthread mutex; `withLock` is the only way to reach it.
///
/// The mutex and the value share one allocation, and the value is reached through a pointer, so
/// `withLock` pays no dynamic exclusivity check (a class's stored `var` would).
// @unchecked Sendable: `state` is read and written only between `pthread_mutex_lock` and
// `pthread_mutex_unlock` on `mutex`, so no two threads touch it at once.
final class Locked<State>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let state: UnsafeMutablePointer<State>

    init(_ initial: State) {
        let alignment = max(
            MemoryLayout<pthread_mutex_t>.alignment, MemoryLayout<State>.alignment)
        let raw = UnsafeMutableRawPointer.allocate(
            byteCount: Self.stateOffset + MemoryLayout<State>.size, alignment: alignment)
        mutex = raw.initializeMemory(
            as: pthread_mutex_t.self, repeating: pthread_mutex_t(), count: 1)
        pthread_mutex_init(mutex, nil)
        state = (raw + Self.stateOffset).initializeMemory(
            as: State.self, repeating: initial, count: 1)
    }

    deinit {
        state.deinitialize(count: 1)
        pthread_mutex_destroy(mutex)
        UnsafeMutableRawPointer(mutex).deallocate()
    }

    /// Where the value starts: after the mutex, rounded up to the value's alignment.
    private static var stateOffset: Int {
        let alignment = MemoryLayout<State>.alignment
        return (MemoryLayout<pthread_mutex_t>.stride + alignment - 1) / alignment * alignment
    }

    @inline(__always)
    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state.pointee)
    }
}

/// A plain pthread mutex that one thread locks and the same thread later unlocks.
// @unchecked Sendable: a pthread mutex is made to be shared between threads.
final class Mutex: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init(recursive: Bool = false) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        if recursive {
            var attributes = pthread_mutexattr_t()
            pthread_mutexattr_init(&attributes)
            pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
            pthread_mutex_init(mutex, &attributes)
            pthread_mutexattr_destroy(&attributes)
        } else {
            pthread_mutex_init(mutex, nil)
        }
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }
}
