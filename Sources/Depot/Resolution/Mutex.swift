internal import CDepotAtomics

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A plain pthread mutex that one thread locks and the same thread later unlocks.
// @unchecked Sendable: a pthread mutex is made to be shared between threads.
final class Mutex: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init(recursive: Bool = false) {
        mutex = initializeMutex(
            at: allocateMemory(
                byteCount: MemoryLayout<pthread_mutex_t>.stride,
                alignment: MemoryLayout<pthread_mutex_t>.alignment),
            recursive: recursive)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        deallocateMemory(UnsafeMutableRawPointer(mutex))
    }

    func lock() {
        if pthread_mutex_lock(mutex) == EDEADLK {
            fatalError(
                "Depot: a thread asked again for a gate it holds while it runs a factory, which "
                    + "would hang it for ever: a Lazy, Provider or lazily injected property read "
                    + "again from inside its own factory (or a deinit that factory triggers). "
                    + "Break the cycle, e.g. by reading it after the factory has returned.")
        }
    }

    func unlock() { pthread_mutex_unlock(mutex) }
}

/// A pthread condition variable, for threads that wait under a lock of Depot's until another
/// thread changes what that lock guards (see `Locked.wait(on:until:)`).
// @unchecked Sendable: a pthread condition variable is made to be shared between threads.
@usableFromInline
final class Condition: @unchecked Sendable {
    let condition: UnsafeMutablePointer<pthread_cond_t>

    init() {
        condition = allocateMemory(
            byteCount: MemoryLayout<pthread_cond_t>.stride,
            alignment: MemoryLayout<pthread_cond_t>.alignment
        ).bindMemory(to: pthread_cond_t.self, capacity: 1)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        deallocateMemory(UnsafeMutableRawPointer(condition))
    }

    /// Wakes every thread waiting on this condition; called with the lock they wait with held.
    func broadcast() {
        pthread_cond_broadcast(condition)
    }
}

/// Initialises a pthread mutex at `memory`. A non-recursive one checks errors: a thread that
/// locks it again gets an error, which the owner turns into a message, instead of hanging.
func initializeMutex(at memory: UnsafeMutableRawPointer, recursive: Bool)
    -> UnsafeMutablePointer<pthread_mutex_t>
{
    let mutex = memory.bindMemory(to: pthread_mutex_t.self, capacity: 1)
    depot_mutex_init(mutex, recursive ? 1 : 0)
    return mutex
}

/// `byteCount` bytes aligned to `alignment`, from `malloc`, whose alignment (two words: 16 bytes
/// on 64-bit platforms) is enough for any mutex and any state Depot keeps:
/// `UnsafeMutableRawPointer.allocate(byteCount:alignment:)` takes the runtime's aligned path
/// (`posix_memalign`), which costs more, and every container allocates once.
/// Freed with ``deallocateMemory(_:)``.
func allocateMemory(byteCount: Int, alignment: Int) -> UnsafeMutableRawPointer {
    precondition(alignment <= 2 * MemoryLayout<Int>.size, "Depot: memory aligned beyond malloc's")
    guard let memory = malloc(byteCount) else { fatalError("Depot: out of memory") }
    return memory
}

/// Frees what ``allocateMemory(byteCount:alignment:)`` gave.
func deallocateMemory(_ memory: UnsafeMutableRawPointer) {
    free(memory)
}
