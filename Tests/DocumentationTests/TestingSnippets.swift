import Depot
import DepotTesting
import Testing
import XCTest

// The snippets of Testing.md.

@Suite(.container)
struct ProfileTests {
    @Test func showsTheLiveName() {
        #expect(ProfileModel().title(forUser: 1) == "Hello, Ada")
    }

    @Test(.container { $0.api.register { MockAPI() } })
    func showsTheMockName() {
        #expect(ProfileModel().title(forUser: 1) == "Hello, Mock")
    }
}

@Test(.container)
func showsTheMockNameAfterRegistering() {
    Container.shared.api.register { MockAPI() }
    #expect(ProfileModel().title(forUser: 1) == "Hello, Mock")
}

final class ServiceContainer: SharedContainer {
    @TaskLocal static var shared = ServiceContainer()
    let manager = ContainerManager()
}
extension Trait where Self == ContainerTrait<ServiceContainer> {
    static var services: Self {
        ContainerTrait(shared: ServiceContainer.$shared, container: ServiceContainer())
    }
}

extension ServiceContainer {
    var clock: Factory<Session> { self { Session() }.singleton }
}

final class DependencyGraphTests: XCTestCase {
    func testDependencyGraphIsValid() {
        let report = Container.shared.validate(\.imageStore, \.connectionLog)
        XCTAssertTrue(report.isValid, "\(report)")
    }
}

final class ProfileModelTests: XCTestCase {
    override func setUp() {
        super.setUp()
        Container.shared.manager.push()
        Container.shared.api.register { MockAPI() }
    }

    override func tearDown() {
        Container.shared.manager.pop()
        super.tearDown()
    }

    func testShowsTheMockName() {
        XCTAssertEqual(ProfileModel().title(forUser: 1), "Hello, Mock")
    }
}

@Suite(.container)
struct TestingSnippets {
    @Test(.services, .container)
    func aTraitOfYourOwnIsolatesYourContainerBesideTheDefaultOne() {
        let first = ServiceContainer.shared.clock()
        #expect(ServiceContainer.shared.clock() === first)
        Container.shared.api.register { MockAPI() }
        #expect(ProfileModel().title(forUser: 1) == "Hello, Mock")
    }

    @Test(.services)
    func theServicesTraitReplacesTheProcesssServiceContainer() async {
        let processWide = await Task.detached { ServiceContainer.shared }.value
        #expect(ServiceContainer.shared !== processWide)
    }

    @Test func withoutTheTraitTwoTaskLocalsIsolateATest() {
        Scope.withIsolatedSingletons {
            Container.$shared.withValue(Container()) {
                Container.shared.api.register { MockAPI() }
                #expect(ProfileModel().title(forUser: 1) == "Hello, Mock")
            }
        }
        #expect(ProfileModel().title(forUser: 1) == "Hello, Ada")
    }

    @Test func childTasksResolveFromTheTestsContainer() async {
        Container.shared.api.register { MockAPI() }
        let title = await Task { ProfileModel().title(forUser: 1) }.value
        #expect(title == "Hello, Mock")
    }

    @Test func pushesNestAndPopPutsBackWhatPushSaved() {
        let manager = Container.shared.manager
        manager.push()
        Container.shared.api.register { MockAPI() }
        manager.push()
        Container.shared.api.register { LiveAPI() }
        manager.pop()
        #expect(Container.shared.api() is MockAPI)
        manager.pop()
        #expect(Container.shared.api() is LiveAPI)
        manager.pop()
        #expect(Container.shared.api() is LiveAPI)
    }

    @Test func anArgumentOverrideHoldsWhileTheArgumentIsSet() {
        do {
            Container.shared.api.onArg("mock-api") { MockAPI() }
            FactoryContext.setArg("mock-api", forKey: "api")
            defer { FactoryContext.removeArg(forKey: "api") }
            #expect(Container.shared.api() is MockAPI)
        }
        Container.shared.api.reset(.scope)
        #expect(Container.shared.api() is LiveAPI)
    }

    @Test func resettingThroughTheContainerLeavesOtherContainersAlone() {
        let other = Container()
        let kept = other.api()
        let api = Container.shared.api()
        Container.shared.manager.reset(scope: .cached)
        #expect(Container.shared.api() as AnyObject !== api as AnyObject)
        #expect(other.api() as AnyObject === kept as AnyObject)
    }
}
