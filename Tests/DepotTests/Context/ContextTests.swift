import Depot
import Testing

@Suite struct ContextTests {
    @Test func argContextOverridesWhileTheArgumentIsSet() {
        let container = Container()
        container.service.onArg("context-arg-1") { MockService("arg") }
        #expect(container.service().name == "live")
        FactoryContext.setArg("context-arg-1", forKey: "context-key-1")
        #expect(container.service().name == "arg")
        FactoryContext.removeArg(forKey: "context-key-1")
        #expect(container.service().name == "live")
    }

    @Test func argsContextMatchesAnyOfItsArguments() {
        let container = Container()
        container.service.onArgs(["context-arg-2a", "context-arg-2b"]) { MockService("args") }
        FactoryContext.setArg("context-arg-2b", forKey: "context-key-2")
        defer { FactoryContext.removeArg(forKey: "context-key-2") }
        #expect(container.service().name == "args")
    }

    @Test func testContextHoldsWhileTestsRun() {
        #expect(FactoryContext.current.isTest)
        let container = Container()
        container.service.onTest { MockService("test") }
        #expect(container.service().name == "test")
    }

    @Test func debugContextFollowsTheBuild() {
        let container = Container()
        container.service.onDebug { MockService("debug") }
        let expected = FactoryContext.current.isDebug ? "debug" : "live"
        #expect(container.service().name == expected)
    }

    @Test func deviceAndSimulatorContextsExcludeEachOther() {
        let container = Container()
        container.service.onSimulator { MockService("simulator") }
        container.service.onDevice { MockService("device") }
        let expected = FactoryContext.current.isSimulator ? "simulator" : "device"
        #expect(container.service().name == expected)
    }

    @Test func previewContextDoesNotHoldOutsidePreviews() {
        let container = Container()
        container.service.onPreview { MockService("preview") }
        #expect(container.service().name == "live")
    }

    @Test func argumentContextsWinOverTestContext() {
        let container = Container()
        container.service.onTest { MockService("test") }
        container.service.onArg("context-arg-3") { MockService("arg") }
        FactoryContext.setArg("context-arg-3", forKey: "context-key-3")
        defer { FactoryContext.removeArg(forKey: "context-key-3") }
        #expect(container.service().name == "arg")
    }

    @Test func contextOverridesWinOverRegistrations() {
        let container = Container()
        container.service.register { MockService("registered") }
        container.service.onTest { MockService("test") }
        #expect(container.service().name == "test")
    }

    @Test func contextsListedTogetherAllOverride() {
        let container = Container()
        container.thingWithID.context(.preview, .test) { Thing(id: $0 + 100) }
        #expect(container.thingWithID(1).id == 101)
    }

    @Test func resettingContextsKeepsRegistrations() {
        let container = Container()
        container.service.register { MockService("registered") }
        container.service.onTest { MockService("test") }
        container.manager.reset(options: .context)
        #expect(container.service().name == "registered")
    }

    @Test func runtimeArgumentsAreReadBack() {
        FactoryContext.setArg("value-4", forKey: "context-key-4")
        #expect(FactoryContext.current.runtimeArguments["context-key-4"] == "value-4")
        FactoryContext.removeArg(forKey: "context-key-4")
        #expect(FactoryContext.current.runtimeArguments["context-key-4"] == nil)
    }
}
