import Depot

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// two-copies LIBRARY: loads LIBRARY, which holds a copy of Depot of its own, uses it, then uses
// this executable's copy. Depot's first use in a process with two copies stops in debug builds
// and logs in release builds.
extension Container {
    var number: Factory<Int> { self { 1 } }
}

guard let handle = dlopen(CommandLine.arguments[1], RTLD_NOW) else {
    fatalError("cannot load \(CommandLine.arguments[1])")
}
typealias Use = @convention(c) () -> Int
let use = unsafeBitCast(dlsym(handle, "depot_copy_use"), to: Use.self)
print("the library's copy resolved \(use())")
print("this copy resolved \(Container().number())")
print("finished")
