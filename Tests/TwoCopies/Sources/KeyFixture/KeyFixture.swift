import Depot

// A factory declared in this library: its key's name is a literal in this image.
extension Container {
    public var crossModuleNumber: Factory<Int> { self { 1 } }
}

/// Resolves `crossModuleNumber` in the container at `container`, from this library's code.
@_cdecl("key_fixture_resolve")
public func resolveCrossModuleNumber(_ container: UnsafeRawPointer) -> Int {
    Unmanaged<Container>.fromOpaque(container).takeUnretainedValue().crossModuleNumber()
}
