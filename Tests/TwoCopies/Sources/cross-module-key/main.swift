import Depot

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// cross-module-key LIBRARY: registers a replacement for LIBRARY's `crossModuleNumber`, naming
// its key with a literal of this executable and LIBRARY's module, then resolves it from
// LIBRARY's code. One declaration is one key wherever its name was compiled, so LIBRARY sees
// the registration. Then registers this module's own declaration of the same name and type,
// another key, which LIBRARY's resolve does not see.
let container = Container()
Factory<Int>(container, key: "crossModuleNumber", { 0 }, file: "KeyFixture/KeyFixture.swift")
    .register { 42 }
let other = Container()
Factory<Int>(other, key: "crossModuleNumber") { 0 }.register { 7 }
guard let handle = dlopen(CommandLine.arguments[1], RTLD_NOW) else {
    fatalError("cannot load \(CommandLine.arguments[1])")
}
typealias Resolve = @convention(c) (UnsafeRawPointer) -> Int
let resolve = unsafeBitCast(dlsym(handle, "key_fixture_resolve"), to: Resolve.self)
print("resolved \(resolve(Unmanaged.passUnretained(container).toOpaque()))")
print("another module's declaration: \(resolve(Unmanaged.passUnretained(other).toOpaque()))")
