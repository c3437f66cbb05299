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
    private let storage: MutexStorage

    init(recursive: Bool = false) {
        storage = MutexStorage(recursive: recursive, sideWords: 0)
    }

    deinit {
        storage.destroy()
    }

    func lock() { storage.lock() }
    func unlock() { storage.unlock() }
}

/// A pthread mutex and `sideWords` words (zero at first) in one allocation, which its owner
/// makes, and destroys with ``destroy()``: for an object that needs a mutex without allocating
/// a ``Mutex`` object too (a creation).
struct MutexStorage {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// Words for the owner to read and write atomically.
    let sideWords: UnsafeMutablePointer<UInt64>

    init(recursive: Bool, sideWords count: Int) {
        let raw = allocateMemory(
            byteCount: Self.sideWordsOffset + 8 * count,
            alignment: MemoryLayout<pthread_mutex_t>.alignment)
        mutex = initializeMutex(at: raw, recursive: recursive)
        sideWords = (raw + Self.sideWordsOffset).initializeMemory(
            as: UInt64.self, repeating: 0, count: count)
    }

    private static var sideWordsOffset: Int {
        (MemoryLayout<pthread_mutex_t>.stride + 7) / 8 * 8
    }

    /// Destroys the mutex and frees the allocation; not to be used after.
    func destroy() {
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
/// (`posix_memalign`), which costs more, and a container and a creation each allocate once.
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
