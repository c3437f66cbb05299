import Depot
import DepotTesting
import Testing

// The snippets of MigratingFromSwiftDependencies.md.

protocol FactClient: Sendable {
    func fact(about number: Int) async -> String
}

struct LiveFactClient: FactClient {
    func fact(about number: Int) async -> String { "\(number) is a number" }
}

struct StubFactClient: FactClient {
    let fact: String
    func fact(about number: Int) async -> String { fact }
}

extension Container {
    var factClient: Factory<any FactClient> { self { LiveFactClient() } }
}

final class FactModel {
    @Injected(\.factClient) var factClient

    func fact(about number: Int) async -> String { await factClient.fact(about: number) }
}

@Test(.container { $0.factClient.register { StubFactClient(fact: "3 is odd") } })
func showsTheStubbedFact() async {
    #expect(await FactModel().fact(about: 3) == "3 is odd")
}

@Test(.container) func theLiveValueIsTheFactorysClosure() async {
    #expect(await FactModel().fact(about: 3) == "3 is a number")
}
