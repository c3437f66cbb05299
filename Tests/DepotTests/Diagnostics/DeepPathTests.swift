import Depot
import Testing

// Cycle checks past the depth at which the check stops walking the path and counts its steps
// (8 factories): a cycle is found there as near the root, in sync and async resolves, and
// branches that run side by side keep their own paths.

extension Container {
    /// n -> n + 1 -> ... -> 40 -> 25: a cycle of 16 steps below 25 that are not in it.
    var deepPathChain: AsyncParameterFactory<Int, Part> {
        self { n in Part("\(n)", [try await self.deepPathChain(n == 40 ? 25 : n + 1)]) }
    }
    /// n -> n + 1 -> ... -> `end`, with no cycle: `branch * 1000 + n`, so that two branches
    /// take other parameters.
    var deepPathLine: ParameterFactory<Int, Part> {
        self { n in Part("\(n)", n % 1000 == 60 ? [] : [self.deepPathLine(n + 1)]) }
    }
    /// The same, async, down to 30, then the synchronous line below it, side by side with
    /// another branch; branch 9 closes a cycle at 25.
    var deepPathAsyncLine: AsyncParameterFactory<Int, Part> {
        self { n in
            if n % 1000 == 30 { return Part("\(n)", [self.deepPathLine(n + 1)]) }
            if n == 9_025 { return try await self.deepPathAsyncLine(9_010) }
            return Part("\(n)", [try await self.deepPathAsyncLine(n + 1)])
        }
    }
    var deepPathBranches: AsyncFactory<Part> {
        self {
            async let first = self.deepPathAsyncLine(1_000)
            async let second = self.deepPathAsyncLine(2_000)
            let both = try await [first, second]
            // After both: the same steps again, below the node they were entered from.
            return Part("branches", both + [try await self.deepPathAsyncLine(3_000)])
        }
    }
    var deepPathCycleInABranch: AsyncFactory<Part> {
        self {
            async let first = self.deepPathAsyncLine(1_000)
            async let cyclic = self.deepPathAsyncLine(9_000)
            return try await Part("branches", [first, cyclic])
        }
    }
}

extension Container {
    /// n -> n + 1 -> ... -> 150, async; at 20 and 40 a level resolves the next twice, one
    /// after the other, and at 30 two branches side by side: the same steps, never a cycle.
    var deepAsyncLine: AsyncParameterFactory<Int, Int> {
        self { n in
            if n == 150 { return n }
            if n == 30 {
                async let first = self.deepAsyncLine(31)
                async let second = self.deepAsyncLine(31)
                return try await first + second
            }
            if n == 20 || n == 40 {
                _ = try await self.deepAsyncLine(n + 1)
            }
            return try await self.deepAsyncLine(n + 1)
        }
    }
}

@Suite struct DeepPathTests {
    @Test func aDeepAsyncResolveWithRepeatedStepsAndBranchesIsNoCycle() async throws {
        #expect(try await Container().deepAsyncLine(0) == 300)
    }

    @Test func aCycleFarBelowTheRootIsReportedWithExactlyItsSteps() async {
        let report = await Container().validate(roots: [.async(\.deepPathChain, 0)])
        #expect(report.errors.map(\.kind) == [.cycle], "\(report)")
        let loop = Array(repeating: "Container.deepPathChain<Part>", count: 17)
        #expect(
            report.errors.first?.message
                == "Depot: circular dependency: " + loop.joined(separator: " -> "))
        #expect(report.errors.first?.path.last == "Container.deepPathChain<Part>(25)")
        #expect(report.errors.first?.path.count == 42)
    }

    @Test func aDeepChainWithoutACycleIsValid() async {
        let report = await Container().validate(roots: [.factory(\.deepPathLine, 0)])
        #expect(report.isValid, "\(report)")
        #expect(Container().deepPathLine(0).children.count == 1)
    }

    @Test func branchesSideBySideKeepTheirOwnPaths() async {
        let report = await Container().validate(roots: [.async(\.deepPathBranches)])
        #expect(report.isValid, "\(report)")
        let made = try? await Container().deepPathBranches()
        #expect(made?.children.count == 3)
    }

    @Test func aCycleInOneOfTwoBranchesIsReportedOnce() async {
        let report = await Container().validate(roots: [.async(\.deepPathCycleInABranch)])
        #expect(report.errors.map(\.kind) == [.cycle], "\(report)")
        let loop = Array(repeating: "Container.deepPathAsyncLine<Part>", count: 17)
        #expect(
            report.errors.first?.message
                == "Depot: circular dependency: " + loop.joined(separator: " -> "))
    }
}
