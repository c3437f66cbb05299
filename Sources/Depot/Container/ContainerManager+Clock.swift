#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension ContainerManager {
    /// A monotonic clock, in seconds, that `timeToLive(_:)` measures ages with.
    public struct Clock: Sendable {
        private let read: @Sendable () -> Double

        /// Makes a clock that reads the time, in seconds, from `now`. Its values must never
        /// decrease.
        public init(_ now: @escaping @Sendable () -> Double) {
            read = now
        }

        /// The seconds since an arbitrary fixed point.
        public func now() -> Double { read() }

        /// The system's monotonic clock (not affected by changes of the wall clock).
        public static let monotonic = Clock {
            var time = timespec()
            clock_gettime(CLOCK_MONOTONIC, &time)
            return Double(time.tv_sec) + Double(time.tv_nsec) / 1_000_000_000
        }
    }
}
