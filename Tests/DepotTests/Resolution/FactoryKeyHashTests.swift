import Testing

@testable import Depot

/// A factory key's hash reads every character of its name, so the factories a code generator
/// declares (one type, names of one length that differ in a digit) spread over a container's
/// tables instead of piling into one run of slots, where each hit would probe past the rest.
@Suite struct FactoryKeyHashTests {
    /// Names as a generator writes them: one length, first and last character, and type.
    static let generated: [StaticString] = [
        "flag001Enabled", "flag002Enabled", "flag003Enabled", "flag004Enabled",
        "flag005Enabled", "flag006Enabled", "flag007Enabled", "flag008Enabled",
        "flag009Enabled", "flag010Enabled", "flag011Enabled", "flag012Enabled",
        "flag013Enabled", "flag014Enabled", "flag015Enabled", "flag016Enabled",
        "flag017Enabled", "flag018Enabled", "flag019Enabled", "flag020Enabled",
        "flag021Enabled", "flag022Enabled", "flag023Enabled", "flag024Enabled",
        "flag025Enabled", "flag026Enabled", "flag027Enabled", "flag028Enabled",
        "flag029Enabled", "flag030Enabled", "flag031Enabled", "flag032Enabled",
        "flag033Enabled", "flag034Enabled", "flag035Enabled", "flag036Enabled",
        "flag037Enabled", "flag038Enabled", "flag039Enabled", "flag040Enabled",
        "flag041Enabled", "flag042Enabled", "flag043Enabled", "flag044Enabled",
        "flag045Enabled", "flag046Enabled", "flag047Enabled", "flag048Enabled",
    ]

    @Test func namesThatDifferInOneCharacterHashApart() {
        let keys = Self.generated.map { FactoryKey(name: $0, type: Bool.self) }
        #expect(Set(keys.map(\.tableHash)).count == keys.count)
        #expect(Set(keys).count == keys.count)
    }

    @Test func factoriesWithSuchNamesKeepTheirOwnInstances() {
        let container = Container()
        let factories = Self.generated.enumerated().map { index, name in
            Factory(container, key: name) { index }.cached
        }
        #expect(factories.map { $0() } == Array(factories.indices))
        factories[7].register { -7 }
        #expect(factories.map { $0() } == Array(factories.indices).map { $0 == 7 ? -7 : $0 })
    }
}
