import Depot

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// cross-module-key LIBRARY: registers a replacement for LIBRARY's `crossModuleNumber`, naming
// its key with a literal of this executable, then resolves it from LIBRARY's code. One
// declaration is one key wherever its name was compiled, so LIBRARY sees the registration.
let container = Container()
Factory<Int>(container, key: "crossModuleNumber") { 0 }.register { 42 }
guard let handle = dlopen(CommandLine.arguments[1], RTLD_NOW) else {
    fatalError("cannot load \(CommandLine.arguments[1])")
}
typealias Resolve = @convention(c) (UnsafeRawPointer) -> Int
let resolve = unsafeBitCast(dlsym(handle, "key_fixture_resolve"), to: Resolve.self)
print("resolved \(resolve(Unmanaged.passUnretained(container).toOpaque()))")
