import CAllocatedBytes

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The bytes the process has allocated with `malloc` and not freed: compare two readings around
/// the allocations to measure.
public func allocatedBytes() -> Int {
    Int(benchmark_allocated_bytes())
}

/// A monotonic clock in nanoseconds.
public func nanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}
