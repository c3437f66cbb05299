internal import CDepotAtomics

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

// Each thread's frame: made on its first resolve, released when it ends.
extension ResolutionFrame {
    /// The frame of the calling thread, made on first use and released when the thread ends.
    @usableFromInline
    static var current: ResolutionFrame {
        currentReference.takeUnretainedValue()
    }

    /// The frame of the calling thread, uncounted: it lives until the thread ends.
    @usableFromInline
    @inline(__always)
    static var currentReference: Unmanaged<ResolutionFrame> {
        if let pointer = depot_current_frame() {
            return Unmanaged<ResolutionFrame>.fromOpaque(pointer)
        }
        return makeCurrent()
    }

    /// The calling thread's spare storage (see `spareStorage`), taken for a new lifetime scope.
    static func takeSpareStorage() -> InstanceTable.CellMap? {
        currentReference._withUnsafeGuaranteedRef { frame in
            defer { frame.spareStorage = nil }
            return frame.spareStorage
        }
    }

    @inline(never)
    private static func makeCurrent() -> Unmanaged<ResolutionFrame> {
        let frame = Unmanaged.passRetained(ResolutionFrame())
        // The key's destructor releases the frame when the thread ends; the thread-local is
        // what resolves read.
        pthread_setspecific(threadKey, frame.toOpaque())
        depot_set_current_frame(frame.toOpaque())
        return frame
    }

    private static let threadKey: pthread_key_t = {
        var key = pthread_key_t()
        #if canImport(Darwin)
            pthread_key_create(&key) { pointer in
                depot_set_current_frame(nil)
                Unmanaged<ResolutionFrame>.fromOpaque(pointer).release()
            }
        #else
            pthread_key_create(&key) { pointer in
                // Cleared first: a destructor that runs later and resolves makes a new frame.
                depot_set_current_frame(nil)
                guard let pointer else { return }
                Unmanaged<ResolutionFrame>.fromOpaque(pointer).release()
            }
        #endif
        return key
    }()
}
