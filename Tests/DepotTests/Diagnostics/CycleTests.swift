import Depot
import Testing

/// Cycles stop the process with every step named, in debug and release builds: these tests run in
/// both, each against a helper built in the same configuration.
@Suite struct CycleTests {
    @Test func cycleStopsWithEveryStepOfItsPath() throws {
        let run = try runCrashHelper("cycle")
        #expect(run.status != 0)
        #expect(
            run.errors.contains(
                "Depot: circular dependency: Container.a<A> -> Container.b<B> -> Container.a<A>"))
        #expect(!run.output.contains("finished"))
    }

    @Test func cycleThroughCachedFactoriesIsReportedNotDeadlocked() throws {
        let run = try runCrashHelper("cached-cycle")
        #expect(run.status != 0)
        #expect(
            run.errors.contains(
                "Depot: circular dependency: Container.cachedA<A> -> Container.cachedB<B> -> "
                    + "Container.cachedA<A>"))
    }

    @Test func longCycleAfterOtherStepsStopsWithExactlyItsSteps() throws {
        let run = try runCrashHelper("long-cycle")
        expectCycle(in: run, of: "Container.chain<Node>", steps: 11)
    }

    @Test func aCycleFarBelowTheRootStopsWithExactlyItsSteps() throws {
        let run = try runCrashHelper("deep-cycle")
        expectCycle(in: run, of: "Container.deepChain<Node>", steps: 17)
    }

    @Test func cycleThroughGraphFactoriesStopsWithItsPath() throws {
        let run = try runCrashHelper("graph-cycle")
        #expect(run.status != 0)
        #expect(
            run.errors.contains(
                "Depot: circular dependency: Container.graphA<A> -> Container.graphB<B> -> "
                    + "Container.graphA<A>"))
    }

    @Test func sameParameterAgainIsACycle() throws {
        let run = try runCrashHelper("parameter-cycle")
        #expect(run.status != 0)
        #expect(
            run.errors.contains(
                "Depot: circular dependency: Container.again<Node> -> Container.again<Node>"))
    }

    @Test func recursionThroughOtherParameterValuesIsNotACycle() throws {
        let run = try runCrashHelper("parameter-recursion")
        #expect(run.status == 0)
        #expect(run.output.contains("depth 20"))
    }

    @Test func aDecoratorThatResolvesItsOwnFactoryStopsAsACycle() throws {
        let run = try runCrashHelper("decorator-cycle")
        #expect(run.status != 0)
        #expect(
            run.errors.contains(
                "Depot: circular dependency: Container.decorated<Node> -> "
                    + "Container.decorated<Node>"), "\(run.errors)")
    }

    @Test func recursionPastTheDepthLimitSaysHowDeepAndHowToRaiseIt() throws {
        let run = try runCrashHelper("deep-recursion")
        #expect(run.status != 0)
        #expect(
            run.errors.contains("Depot: resolution nested 257 levels deep, past the limit of 256"))
        #expect(run.errors.contains("ContainerManager.maximumResolutionDepth ="))
        // The path shows the parameters: 300 counts down to 44 at the 257th level.
        #expect(
            run.errors.contains("Container.countdown<Node>(45) -> Container.countdown<Node>(44)"),
            "\(run.errors)")
        #expect(!run.errors.contains("circular dependency"))
    }

    @Test(
        .disabled(
            if: isThreadSanitized,
            "ThreadSanitizer's runtime takes more stack a frame than the main thread has room for"))
    func aRaisedDepthLimitLetsRecursionGoDeepOnTheMainThread() throws {
        let run = try runCrashHelper("deep-recursion-raised")
        #expect(run.status == 0, "\(run.errors)")
        // 2,000 levels unoptimised, 10,000 optimised, on the main thread's default stack.
        #expect(run.output.contains(FactoryContext.current.isDebug ? "depth 2000" : "depth 10000"))
    }

    @Test(arguments: ["deep-recursion-small-stack", "deeper-recursion-small-stack"])
    func recursionOnASmallStackStopsWithDepotsMessageBeforeTheStackRunsOut(scenario: String)
        throws
    {
        let run = try runCrashHelper(scenario)
        #expect(run.status != 0)
        #expect(!run.output.contains("depth"))
        // Short of the limit where the stack is too small for it; past it where it is not (300
        // levels optimised fit in 512 KiB).
        let stop =
            run.errors.contains("its thread's stack nearly used up")
            ? "Thread.stackSize" : "past the limit of 256"
        #expect(run.errors.contains("Depot: resolution nested "), "\(run.errors)")
        #expect(run.errors.contains(stop), "\(run.errors)")
        if scenario == "deeper-recursion-small-stack" {
            #expect(run.errors.contains("its thread's stack nearly used up, short of the limit"))
        }
    }

    @Test func aParameterNotEqualToItselfPassedOnIsACycle() throws {
        let run = try runCrashHelper("nan-cycle")
        #expect(run.status != 0)
        #expect(
            run.errors.contains(
                "Depot: circular dependency: Container.nanAgain<Node> -> Container.nanAgain<Node>"
            ), "\(run.errors)")
    }

    @Test func aChainThroughChildContainersNamesWhatDiffers() throws {
        let run = try runCrashHelper("child-chain")
        #expect(run.status != 0)
        #expect(run.errors.contains("past the limit of 100"), "\(run.errors)")
        #expect(
            run.errors.contains(
                "Its steps that look the same are in different containers ("),
            "\(run.errors)")
        #expect(!run.errors.contains("No step repeats with the same parameter"))
    }

    @Test func cycleSplitAcrossThreadsIsReportedNotDeadlocked() throws {
        let run = try runCrashHelper("cross-thread-cycle")
        #expect(run.status != 0)
        let circle = [
            "Container.slowA<A> -> Container.slowB<B> -> Container.slowA<A>",
            "Container.slowB<B> -> Container.slowA<A> -> Container.slowB<B>",
        ]
        #expect(
            circle.contains { run.errors.contains("Depot: circular dependency: \($0) (across") })
    }

    @Test func aRingOfThreeThreadsThroughAnOuterCreationIsReportedWithEveryStep() throws {
        // The first thread makes ringA and, inside it, ringInner, which waits for the second's
        // ringB; that waits for the third's ringC, which waits for ringA: the outer creation.
        let run = try runCrashHelper("three-thread-ring")
        #expect(run.status != 0)
        let ring = ["ringA", "ringInner", "ringB", "ringC"].map { "Container.\($0)<" }
        let line = run.errors.split(separator: "\n").first {
            $0.contains("Depot: circular dependency: ")
        }
        #expect(line?.contains("(across threads") == true, "\(run.errors)")
        for step in ring {
            #expect(line?.contains(step) == true, "\(step) in \(run.errors)")
        }
        #expect(!run.output.contains("finished"))
    }

    @Test func cycleThroughAsyncFactoriesStopsWithItsPath() throws {
        let run = try runCrashHelper("async-cycle")
        #expect(run.status != 0)
        #expect(
            run.errors.contains(
                "Depot: circular dependency: Container.asyncA<A> -> Container.asyncB<B> -> "
                    + "Container.asyncA<A>"))
        #expect(!run.output.contains("finished"))
    }

    @Test func anAsyncCycleFarBelowTheRootStopsWithExactlyItsSteps() throws {
        let run = try runCrashHelper("deep-async-cycle")
        expectCycle(in: run, of: "Container.deepAsyncChain<Node>", steps: 17)
        #expect(!run.output.contains("finished"))
    }

    @Test func longCycleThroughAsyncFactoriesStopsWithItsFirstCycle() throws {
        let run = try runCrashHelper("async-long-cycle")
        expectCycle(in: run, of: "Container.asyncChain<Node>", steps: 11)
        #expect(!run.output.contains("finished"))
    }

    @Test func cycleThroughAsyncGraphFactoriesStopsNotHangs() throws {
        let run = try runCrashHelper("async-graph-cycle")
        #expect(run.status != 0)
        #expect(
            run.errors.contains(
                "Depot: circular dependency: Container.asyncGraphA<A> -> "
                    + "Container.asyncGraphB<B> -> Container.asyncGraphA<A>\n"))
        #expect(!run.output.contains("finished"))
    }

    @Test func asyncCycleSplitAcrossTasksIsReportedNotHung() throws {
        let run = try runCrashHelper("cross-task-async-cycle")
        #expect(run.status != 0)
        let circle = [
            "Container.slowAsyncA<A> -> Container.slowAsyncB<B> -> Container.slowAsyncA<A>",
            "Container.slowAsyncB<B> -> Container.slowAsyncA<A> -> Container.slowAsyncB<B>",
        ]
        #expect(
            circle.contains {
                run.errors.contains("Depot: circular dependency: \($0) (across tasks")
            })
        #expect(!run.output.contains("finished"))
    }

    @Test func graphCycleSplitAcrossThreadsSharingTheGraphIsReportedNotHung() throws {
        let run = try runCrashHelper("cross-thread-graph-cycle")
        #expect(run.status != 0)
        let circle = [
            "Container.slowThreadGraphA<A> -> Container.slowThreadGraphB<B> -> "
                + "Container.slowThreadGraphA<A>",
            "Container.slowThreadGraphB<B> -> Container.slowThreadGraphA<A> -> "
                + "Container.slowThreadGraphB<B>",
        ]
        #expect(
            circle.contains {
                run.errors.contains("Depot: circular dependency: \($0) (across threads")
            }, "\(run.errors)")
        #expect(!run.output.contains("finished"))
    }

    @Test func graphCycleSplitAcrossChildTasksIsReportedNotHung() throws {
        let run = try runCrashHelper("cross-task-graph-cycle")
        #expect(run.status != 0)
        let circle = [
            "Container.slowGraphA<A> -> Container.slowGraphB<B> -> Container.slowGraphA<A>",
            "Container.slowGraphB<B> -> Container.slowGraphA<A> -> Container.slowGraphB<B>",
        ]
        #expect(
            circle.contains {
                run.errors.contains("Depot: circular dependency: \($0) (across tasks")
            }, "\(run.errors)")
        #expect(!run.output.contains("finished"))
    }

    @Test func unregisteredPromiseNamesContainerKeyTypeAndDeclaration() throws {
        let run = try runCrashHelper("promised")
        #expect(run.status != 0)
        #expect(run.errors.contains("Container.promisedNode<Optional<Node>> was promised ("))
        // The file and line of the `promised()` declaration.
        #expect(run.errors.contains("main.swift:"))
    }
}

/// Expects `run` to have stopped on a cycle of `count` steps, each `factory`, named whole.
func expectCycle(
    in run: HelperRun, of factory: String, steps count: Int,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(run.status != 0, sourceLocation: sourceLocation)
    let steps = Array(repeating: factory, count: count)
    #expect(
        run.errors.contains(
            "Depot: circular dependency: " + steps.joined(separator: " -> ") + "\n"),
        sourceLocation: sourceLocation)
}
