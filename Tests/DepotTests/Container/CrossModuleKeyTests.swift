import Depot
import DepotKeyFixture
import Testing

/// A factory's key is its declaration's name and type, wherever the name's literal was compiled:
/// a registration made with the name spelled in this module reaches resolves compiled in another.
@Suite struct CrossModuleKeyTests {
    @Test func registrationReachesAResolveCompiledInAnotherModule() {
        let container = Container()
        // The same key, its literal compiled here: one key, so the registration is seen there.
        Factory<Int>(container, key: "crossModuleNumber") { 0 }.register { 42 }
        #expect(resolveCrossModuleNumber(in: container) == 42)
        #expect(container.crossModuleNumber() == 42)
    }

    @Test func namesOfTheSameLengthAndTypeStayApart() {
        let container = Container()
        Factory<Int>(container, key: "crossModuleNumbex") { 0 }.register { 7 }
        #expect(resolveCrossModuleNumber(in: container) == 1)
    }
}
