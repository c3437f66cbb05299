// swift-format-ignore-file: OrderedImports
// README.md's first snippet, verbatim: it imports the testing modules where the test begins.
import Depot

// Declare a factory in a container extension.
extension Container {
    var api: Factory<any API> { self { LiveAPI() }.cached }
}

// Inject it.
final class ProfileModel {
    @Injected(\.api) private var api

    func title(forUser id: Int) -> String { "Hello, \(api.user(id: id).name)" }
}

// Override it in a test: each test gets a fresh Container.shared and its own singletons.
import DepotTesting
import Testing

@Test(.container { $0.api.register { MockAPI() } })
func showsTheUsersName() {
    #expect(ProfileModel().title(forUser: 1) == "Hello, Mock")
}

@Test(.container)
func showsTheLiveUsersNameWithoutAnOverride() {
    #expect(ProfileModel().title(forUser: 1) == "Hello, Ada")
}
