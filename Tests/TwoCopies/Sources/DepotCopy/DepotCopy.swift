import Depot

extension Container {
    var copyNumber: Factory<Int> { self { 2 } }
}

/// Uses this library's own copy of Depot.
@_cdecl("depot_copy_use")
public func useDepotCopy() -> Int {
    Container().copyNumber()
}
