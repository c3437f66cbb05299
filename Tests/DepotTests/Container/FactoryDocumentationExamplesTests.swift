import Depot
import Testing

// The examples of FactoryKit's "Containers" document, in Depot: a project that used them
// builds and behaves the same after changing its import.

protocol MyServiceType: Sendable {}
final class MyService: MyServiceType, @unchecked Sendable {}

extension Container {
    /// `Factory(self) { ... }`: the explicit form of a declaration.
    var explicitService: Factory<any MyServiceType> {
        Factory(self) { MyService() }
    }
    /// `makes { ... }`: the spelling of Factory 2.0's early documentation.
    var madeService: Factory<any MyServiceType> {
        makes { MyService() }
    }
}

/// A view model given a container, as "Passing Containers" shows.
final class ContentViewModel {
    let service2: any MyServiceType
    init(container: Container) {
        service2 = container.explicitService()
    }
}

/// A custom container, as "Custom Containers" shows.
final class MyContainer: SharedContainer {
    static let shared = MyContainer()
    let manager = ContainerManager()
}

extension MyContainer {
    var someService: Factory<any MyServiceType> { makes { MyService() }.cached }
    var anotherService: Factory<any MyServiceType> { self { MyService() }.singleton }
}

/// "Property wrappers like @Injected always reference the shared container for that class type."
final class AnotherViewModel {
    @Injected(\MyContainer.anotherService) var anotherService
}

extension SharedContainer {
    /// "You can extend SharedContainer with your own Factory definitions."
    var commonService: Factory<any MyServiceType> { makes { MyService() }.cached }
}

/// The identity of a service, for comparing instances.
func identity(_ service: any MyServiceType) -> ObjectIdentifier {
    ObjectIdentifier(service as AnyObject)
}

@Suite struct FactoryDocumentationExamplesTests {
    @Test func factoryInitAndMakesDeclareFactories() {
        let container = Container()
        #expect(container.explicitService() is MyService)
        #expect(container.madeService() is MyService)
    }

    @Test func containersCanBePassedToTheObjectsThatNeedThem() {
        let container = Container()
        container.explicitService.register { MyService() }
        #expect(ContentViewModel(container: container).service2 is MyService)
    }

    @Test func customContainerKeepsItsOwnRegistrationsAndScopes() {
        let container = MyContainer()
        #expect(identity(container.someService()) == identity(container.someService()))
        #expect(identity(container.someService()) != identity(MyContainer().someService()))
    }

    @Test func injectedReferencesTheSharedContainerOfItsType() {
        let viewModel = AnotherViewModel()
        #expect(identity(viewModel.anotherService) == identity(MyContainer.shared.anotherService()))
    }

    @Test func sharedContainerExtensionsAreManagedByTheResolvingContainer() {
        let container = Container()
        let mine = MyContainer()
        let common1 = identity(container.commonService())
        let common2 = identity(mine.commonService())
        #expect(common1 != common2)
        #expect(identity(container.commonService()) == common1)
        #expect(identity(mine.commonService()) == common2)
    }
}
