import Depot
import Testing

/// Misuses that Depot reports with what to do instead; each runs in the helper executable, built
/// in the same configuration as the tests.
@Suite struct MisuseTests {
    @Test func useScopeAfterCachingAssertsInDebugAndDropsTheInstancesInRelease() throws {
        let run = try runCrashHelper("use-scope-late")
        if FactoryContext.current.isDebug {
            #expect(run.status != 0)
            #expect(run.errors.contains("useScope(from:) on a container that had cached instances"))
            #expect(run.errors.contains("Call it right after making the container"))
        } else {
            #expect(run.status == 0)
            #expect(run.output.contains("dropped true, shared true"))
        }
    }

    @Test(arguments: [("negative-time-to-live", "-5.0"), ("nan-time-to-live", "nan")])
    func aNegativeOrNaNTimeToLiveStopsNamingTheFactory(scenario: String, printed: String) throws {
        let run = try runCrashHelper(scenario)
        #expect(run.status != 0)
        #expect(
            run.errors.contains(
                "Depot: Container.cachedNode<Node>.timeToLive(\(printed)): a time to live is a "
                    + "number of seconds, zero or more"), "\(run.errors)")
        #expect(!run.output.contains("finished"))
    }

    @Test func aDepthLimitBelowOneStopsWithDepotsMessageInEveryBuild() throws {
        let run = try runCrashHelper("depth-zero")
        #expect(run.status != 0)
        #expect(
            run.errors.contains("Depot: maximumResolutionDepth must be at least 1, not 0."),
            "\(run.errors)")
    }

    @Test func aMainActorFactoryResolvedOffTheMainActorIsLoggedAndGoesOn() throws {
        let run = try runCrashHelper("main-actor-off-main")
        #expect(run.status == 0)
        #expect(run.output.contains("depth 0"))
        let message =
            "Depot: Container.mainActorNode<Node> is declared on MainActor and was resolved "
            + "off it, on a thread outside any task."
        // Debug builds log it through the container's logger (which prints); release checks
        // nothing.
        #expect(run.output.contains(message) == FactoryContext.current.isDebug, "\(run.output)")
    }

    @Test func aMainActorFactoryResolvedOffTheMainActorStopsWhenAsked() throws {
        let run = try runCrashHelper("main-actor-off-main-stops")
        guard FactoryContext.current.isDebug else {
            // Release builds pay nothing for the check, and make no.
            #expect(run.status == 0)
            #expect(run.output.contains("finished"))
            return
        }
        #expect(run.status != 0)
        #expect(
            run.errors.contains(
                "Depot: Container.mainActorNode<Node> is declared on MainActor and was resolved "
                    + "off it, on a thread outside any task. Its closure is isolated to MainActor"),
            "\(run.errors)")
        #expect(run.errors.contains("resolveOnMainActor()"))
        #expect(!run.output.contains("depth"))
    }

    @Test func aMainActorFactoryResolvedOnTheMainThreadRuns() throws {
        let run = try runCrashHelper("main-actor-on-main")
        #expect(run.status == 0)
        #expect(run.output.contains("depth 0"))
    }

    @Test func storageReturningAnotherValueNamesTheScopeAndTheFactory() throws {
        let run = try runCrashHelper("wrong-storage")
        #expect(run.status != 0)
        #expect(run.errors.contains("the storage of scope wrong returned a String"))
        #expect(run.errors.contains("Container.cachedNode<Node>"))
        #expect(!run.output.contains("finished"))
    }

    @Test func storageThatResolvesUnderTheLockStopsWithAMessageInsteadOfHanging() throws {
        let run = try runCrashHelper("resolving-storage")
        #expect(run.status != 0)
        #expect(run.errors.contains("asked for a lock of Depot's that it already holds"))
        #expect(run.errors.contains("ScopeStorage"))
        #expect(!run.output.contains("finished"))
    }

    @Test func lazyReadFromInsideItsOwnFactoryStopsWithAMessageInsteadOfHanging() throws {
        let run = try runCrashHelper("lazy-reads-itself")
        #expect(run.status != 0)
        #expect(!run.output.contains("finished"))
        #expect(run.errors.contains("asked again for a gate it holds"))
        #expect(run.errors.contains("Break the cycle"))
    }
}
