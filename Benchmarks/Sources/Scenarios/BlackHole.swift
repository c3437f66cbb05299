/// Takes a value and does nothing with it, where the optimizer cannot see: what a benchmark
/// passes here must be computed.
@inline(never)
@_optimize(none)
public func blackHole<T>(_ value: T) {}
