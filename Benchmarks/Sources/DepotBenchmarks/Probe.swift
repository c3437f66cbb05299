import BenchmarkSupport
import Depot
import Foundation

// --probe-shared-writes: what two threads' requests (the `request` scenario's lifetime scope and
// handler) both write, counted by the interposer of `Probe/shared-writes.c`, which
// `.ci/check-shared-writes` builds and loads with LD_PRELOAD (Linux). A reference count both
// threads change, or a mutex both lock, on every request is memory the two threads contend for.
// The handler holds the two singletons, so their counts are the workload's own: one retain and
// one release each per request. Anything else that both threads count at least once in a
// hundred requests fails the probe, as does any mutex both lock at all. While they run, a third
// thread makes its first request: a thread that comes later must not outdate what the others
// made of the container (their templates), nor make them take its lock.
extension Run {
    /// Runs the probe and prints what it found; returns whether the requests shared nothing
    /// but the singletons' counts, each changed at most twice per request.
    func probeSharedWrites(requests: Int = 20_000) -> Bool {
        guard let probe = SharedWritesProbe() else {
            print(
                "error: the shared-writes interposer is not loaded: run .ci/check-shared-writes"
                    + " (LD_PRELOAD of Benchmarks/Probe/shared-writes.c, Linux)")
            return false
        }
        let root = Depot.Container()
        let singletons = [
            Unmanaged.passUnretained(root.appConfig()).toOpaque(): "AppConfig",
            Unmanaged.passUnretained(root.appClient()).toOpaque(): "AppClient",
        ]
        Self.onTwoThreadsProbed(probe, requests: requests) {
            blackHole(root.newLifetimeScope().requestHandler())
        }
        print("shared writes of two threads' requests (per request and thread):")
        var passed = probe.overflowed() == 0
        if !passed { print("  error: the interposer's table overflowed") }
        var seen = Set<String>()
        for entry in probe.entries()
        where entry.operations.min()! >= (entry.isLock ? 1 : requests / 100) {
            let perRequest = entry.operations.map {
                String(format: "%.2f", Double($0) / Double(requests))
            }
            .joined(separator: " / ")
            if entry.isLock {
                passed = false
                print(
                    "  error: a mutex both lock (\(perRequest)), first locked from"
                        + " \(entry.detail.map { String(cString: probe.describe($0)) } ?? "?")")
            } else if let name = singletons[entry.address] {
                seen.insert(name)
                let withinTwo = entry.operations.allSatisfy { $0 <= 2 * requests }
                passed = passed && withinTwo
                print(
                    "  \(withinTwo ? "" : "error: ")\(name), a singleton the handler holds:"
                        + " \(perRequest) reference counts"
                        + " (expected at most 2: one retain, one release)")
            } else if entry.isImmortal {
                print("  \(entry.typeName), immortal (its count is not written): \(perRequest)")
            } else {
                passed = false
                print(
                    "  error: \(entry.typeName) at \(entry.address): \(perRequest) reference counts"
                )
            }
        }
        if seen.count != singletons.count {
            passed = false
            print("  error: nothing counted on the singletons: the interposer counted no request")
        }
        print(passed ? "shared writes: only the singletons' counts" : "shared writes: FAILED")
        return passed
    }

    /// Runs `body` `requests` times on each of two threads at once, counted by `probe` from the
    /// moment both are warm (a thousand requests each, outside the count) until both are done;
    /// meanwhile, runs it once on a third thread, which the probe does not count.
    private static func onTwoThreadsProbed(
        _ probe: SharedWritesProbe, requests: Int, _ body: @escaping @Sendable () -> Void
    ) {
        let ready = DispatchSemaphore(value: 0)
        let start = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let exit = DispatchSemaphore(value: 0)
        for index in 0..<2 {
            Thread.detachNewThread {
                for _ in 0..<1000 { body() }
                probe.registerThread(Int32(index))
                ready.signal()
                start.wait()
                for _ in 0..<requests { body() }
                done.signal()
                // Ends after the count does: a thread's end releases its own memory.
                exit.wait()
            }
        }
        for _ in 0..<2 { ready.wait() }
        probe.begin()
        for _ in 0..<2 { start.signal() }
        let newcomer = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            body()
            newcomer.signal()
        }
        newcomer.wait()
        for _ in 0..<2 { done.wait() }
        probe.end()
        for _ in 0..<2 { exit.signal() }
    }
}

/// The interposer's functions, found in the process (`nil` if it is not loaded).
struct SharedWritesProbe: Sendable {
    struct Entry {
        let address: UnsafeMutableRawPointer
        /// An object's type metadata, or the caller of a mutex's first lock.
        let detail: UnsafeMutableRawPointer?
        let isLock: Bool
        let isImmortal: Bool
        let operations: [Int]

        var typeName: String {
            detail.map { _typeName(unsafeBitCast($0, to: Any.Type.self)) } ?? "?"
        }
    }

    typealias Action = @convention(c) () -> Void
    typealias Read =
        @convention(c) (
            Int, UnsafeMutablePointer<UnsafeMutableRawPointer?>,
            UnsafeMutablePointer<UnsafeMutableRawPointer?>,
            UnsafeMutablePointer<Int32>, UnsafeMutablePointer<Int>, UnsafeMutablePointer<Int>
        ) -> Int32

    let registerThread: @convention(c) (Int32) -> Void
    let begin: Action
    let end: Action
    let overflowed: @convention(c) () -> Int32
    let slots: @convention(c) () -> Int
    let read: Read
    let describe: @convention(c) (UnsafeMutableRawPointer) -> UnsafePointer<CChar>

    init?() {
        func find<F>(_ name: String, as _: F.Type) -> F? {
            dlsym(dlopen(nil, RTLD_NOW), name).map { unsafeBitCast($0, to: F.self) }
        }
        guard
            let registerThread = find(
                "depot_probe_register_thread", as: (@convention(c) (Int32) -> Void).self),
            let begin = find("depot_probe_begin", as: Action.self),
            let end = find("depot_probe_end", as: Action.self),
            let overflowed = find("depot_probe_overflowed", as: (@convention(c) () -> Int32).self),
            let slots = find("depot_probe_slots", as: (@convention(c) () -> Int).self),
            let read = find("depot_probe_read", as: Read.self),
            let describe = find(
                "depot_probe_describe",
                as: (@convention(c) (UnsafeMutableRawPointer) -> UnsafePointer<CChar>).self)
        else { return nil }
        self.describe = describe
        (self.registerThread, self.begin, self.end) = (registerThread, begin, end)
        (self.overflowed, self.slots, self.read) = (overflowed, slots, read)
    }

    func entries() -> [Entry] {
        (0..<slots()).compactMap { slot in
            var address: UnsafeMutableRawPointer?
            var detail: UnsafeMutableRawPointer?
            var flags: Int32 = 0
            var first = 0
            var second = 0
            guard read(slot, &address, &detail, &flags, &first, &second) != 0, let address else {
                return nil
            }
            return Entry(
                address: address, detail: detail, isLock: flags & 1 != 0,
                isImmortal: flags & 2 != 0,
                operations: [first, second])
        }
    }
}
