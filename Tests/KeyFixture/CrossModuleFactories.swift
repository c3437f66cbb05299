import Depot

// A factory declared in a module of its own, for the test that one declaration is one key
// wherever it is compiled.
extension Container {
    public var crossModuleNumber: Factory<Int> { self { 1 } }
}

/// Resolves `crossModuleNumber` from code compiled in this module.
public func resolveCrossModuleNumber(in container: Container) -> Int {
    container.crossModuleNumber()
}
