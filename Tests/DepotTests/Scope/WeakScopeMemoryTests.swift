import Testing

@Suite struct WeakScopeMemoryTests {
    #if os(Linux)
        /// `.shared.scopeOnParameters` and `.weakSingleton.scopeOnParameters` under a stream of
        /// 300,000 distinct parameters whose instances nobody keeps: an entry that outlived its
        /// instance for good would cost over 200 bytes a parameter (60 MB and more). Measured in a
        /// helper process of its own: resident memory is the whole process's.
        @Test func entriesOfGoneInstancesDoNotAccumulate() throws {
            let run = try runCrashHelper("weak-parameter-memory", limit: 600)
            #expect(run.status == 0, "\(run.errors)")
            let growth = run.output.split(separator: "\n").first { $0.hasPrefix("grew ") }
            let bytes = growth.flatMap { Int($0.dropFirst("grew ".count)) }
            #expect(bytes != nil, "no figure in: \(run.output)")
            if let bytes {
                #expect(bytes < 8 << 20, "grew \(bytes) bytes")
            }
        }
    #endif
}
