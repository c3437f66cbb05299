import Atomics
import Dispatch

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

// Each thread's frame: made on its first resolve, released when the thread ends; and, for the
// debug builds' isolation check, which thread or task the caller runs on.
extension ResolutionFrame {
    /// The frame of the calling thread, made on first use and released when the thread ends.
    @usableFromInline
    static var current: ResolutionFrame {
        unmanagedCurrent.takeUnretainedValue()
    }

    /// Runs `body` with the frame of the calling thread, not retained: the thread's key holds
    /// it until the thread ends, which is after `body` returns.
    static func withCurrent<Result>(_ body: (ResolutionFrame) -> Result) -> Result {
        unmanagedCurrent._withUnsafeGuaranteedRef(body)
    }

    /// The frame of the calling thread, as ``current`` makes it, not retained.
    @usableFromInline
    static var unmanagedCurrent: Unmanaged<ResolutionFrame> {
        @inline(__always) get {
            // The key's value holds a retain of the frame until the thread ends.
            guard let pointer = pthread_getspecific(threadKey) else { return makeCurrent() }
            return Unmanaged<ResolutionFrame>.fromOpaque(pointer)
        }
    }

    /// Makes the calling thread's frame, on its first resolve.
    @inline(never)
    private static func makeCurrent() -> Unmanaged<ResolutionFrame> {
        let frame = Unmanaged.passRetained(ResolutionFrame())
        let code = pthread_setspecific(threadKey, frame.toOpaque())
        if code != 0 { fatalError("Depot: pthread_setspecific failed with error \(code)") }
        return frame
    }

    /// The key of each thread's frame; its destructor releases the frame when the thread ends.
    private static let threadKey: pthread_key_t = {
        var key = pthread_key_t()
        let code = pthread_key_create(&key) { pointer in
            Unmanaged<ResolutionFrame>.fromOpaque(unwrap(pointer)).release()
        }
        if code != 0 { fatalError("Depot: pthread_key_create failed with error \(code)") }
        return key
    }()

    /// The argument of a pthread callback: optional on Linux, not on Darwin, never nil here.
    private static func unwrap(_ pointer: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer {
        pointer!
    }
}

extension ResolutionFrame {
    /// Whether any async resolution has started: until then a thread's resolve reads none of
    /// their task-locals.
    static let isAsyncStarted = ManagedAtomic(false)

    /// Notes that an async resolution starts, before it binds a task-local.
    static func noteAsyncStarted() {
        if !isAsyncStarted.load(ordering: .relaxed) {
            isAsyncStarted.store(true, ordering: .releasing)
        }
    }

    /// The async resolution whose factory's closure the calling task runs, if any: a thread's
    /// outermost resolve goes on with its path and graph.
    static var ambient: AsyncResolution? {
        isAsyncStarted.load(ordering: .acquiring) ? AsyncResolution.current : nil
    }

    /// Whether the calling code runs in a task; the task is only looked at, never kept or used.
    static var isInTask: Bool {
        withUnsafeCurrentTask { $0 != nil }
    }

    /// Whether the calling code runs on the main actor: on the main thread, or in the main
    /// dispatch queue, whichever thread drains it.
    static var isOnMainActor: Bool { current.isOnMainThread || isOnMainQueue }

    /// Whether the calling code runs in the main dispatch queue, whichever thread drains it.
    static var isOnMainQueue: Bool {
        _ = markMainQueue
        return DispatchQueue.getSpecific(key: mainQueueKey) != nil
    }

    private static let mainQueueKey = DispatchSpecificKey<Bool>()
    private static let markMainQueue: Void = DispatchQueue.main.setSpecific(
        key: mainQueueKey, value: true)

    /// An address near the top of the calling thread's stack: a local variable's.
    @inline(never)
    static func stackPosition() -> UInt {
        var marker = 0
        // Safe: the address is only compared, never read or written through.
        return withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
    }

    /// The lowest address of the calling thread's stack, plus room (64 KiB) for a stop to
    /// build and log its message; 0 where the stack's bounds cannot be read.
    static func stackLimit() -> UInt {
        #if canImport(Darwin)
            let thread = pthread_self()
            let end = UInt(bitPattern: pthread_get_stackaddr_np(thread))
            return end - UInt(pthread_get_stacksize_np(thread)) + 64 << 10
        #else
            // glibc's and musl's `pthread_getattr_np`, which their Swift modules do not import.
            // Safe: the symbol is that C function, whose signature `GetAttributes` spells; it
            // fills `attributes`, which `pthread_attr_destroy` frees.
            typealias GetAttributes =
                @convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32
            var attributes = pthread_attr_t()
            guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "pthread_getattr_np"),
                unsafeBitCast(symbol, to: GetAttributes.self)(pthread_self(), &attributes) == 0
            else { return 0 }
            defer { pthread_attr_destroy(&attributes) }
            var start: UnsafeMutableRawPointer?
            var size = 0
            pthread_attr_getstack(&attributes, &start, &size)
            return UInt(bitPattern: start) + 64 << 10
        #endif
    }

    /// Whether the calling thread is the process's main thread (see `checkIsolation`).
    static var isMainThread: Bool {
        #if canImport(Darwin)
            return pthread_main_np() != 0
        #else
            // Linux names the calling thread "PID/task/TID"; the main thread's TID is the PID.
            // Where that cannot be read, the thread is taken for the main one: no false stop.
            var name = [CChar](repeating: 0, count: 64)
            let count = readlink("/proc/thread-self", &name, name.count - 1)
            guard count > 0 else { return true }
            let text = String(
                decoding: name.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let parts = text.split(separator: "/")
            return parts.count != 3 || parts[0] == parts[2]
        #endif
    }
}

extension ResolutionFrame {
    /// Where a frame keeps its ``Resolution``: memory of its own, reached through a pointer,
    /// which the runtime's exclusivity checks do not watch.
    // Safe because only the frame's own thread reaches it (`current` hands a frame to that
    // thread alone), and no access to it overlaps another: each one is a read, a write or a
    // call of a `mutating` function of `Resolution`, none of which calls out of the engine.
    final class Storage {
        let resolution = UnsafeMutablePointer<Resolution>.allocate(capacity: 1)

        init() {
            resolution.initialize(to: Resolution())
        }

        deinit {
            resolution.deinitialize(count: 1)
            resolution.deallocate()
        }
    }
}

extension ResolutionFrame {
    /// Runs `body` on a new thread with a stack of `stackSize` bytes, which ends with it: a
    /// validation's resolve, moved where its stack has room (``Validation/LargerStack``).
    static func startThread(stackSize: Int, _ body: @escaping @Sendable () -> Void) {
        final class Start {
            let body: @Sendable () -> Void
            init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        var code = pthread_attr_setstacksize(&attributes, stackSize)
        if code != 0 { fatalError("Depot: pthread_attr_setstacksize failed with error \(code)") }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        // Safe: the retained `Start` is taken back exactly once, by the new thread.
        let start = Unmanaged.passRetained(Start(body)).toOpaque()
        #if canImport(Darwin)
            var thread: pthread_t?
            code = pthread_create(
                &thread, &attributes,
                { pointer in
                    Unmanaged<Start>.fromOpaque(pointer).takeRetainedValue().body()
                    return nil
                }, start)
        #else
            var thread = pthread_t()
            code = pthread_create(
                &thread, &attributes,
                { pointer in
                    Unmanaged<Start>.fromOpaque(pointer!).takeRetainedValue().body()
                    return nil
                }, start)
        #endif
        if code != 0 { fatalError("Depot: pthread_create failed with error \(code)") }
    }
}
