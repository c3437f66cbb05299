#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What Depot knows about the running process, used to pick context overrides.
public struct FactoryContext: Sendable {
    /// The launch arguments.
    public var arguments: [String]
    /// Arguments set while running, with `setArg(_:forKey:)`.
    public var runtimeArguments: [String: String]
    /// Whether the process runs an Xcode preview.
    public var isPreview: Bool
    /// Whether the process runs tests.
    public var isTest: Bool
    /// Whether the process runs on a simulator.
    public var isSimulator: Bool
    /// Whether this is a debug build.
    public var isDebug: Bool

    /// Reads the context of the running process.
    public init() {
        arguments = CommandLine.arguments
        runtimeArguments = [:]
        isPreview = Self.environment("XCODE_RUNNING_FOR_PREVIEWS") == "1"
        isTest = Self.isRunningTests(arguments: arguments)
        #if targetEnvironment(simulator)
            isSimulator = true
        #else
            isSimulator = false
        #endif
        isDebug = Self.isDebugBuild
    }

    private static let storage = Locked(FactoryContext())

    /// The process's context. Reading and writing it are each atomic.
    public static var current: FactoryContext {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }

    /// Sets a runtime argument, so that `.arg(value)` contexts (and `.arg(key)`) hold.
    public static func setArg(_ value: String, forKey key: String) {
        storage.withLock { $0.runtimeArguments[key] = value }
    }

    /// Removes the runtime argument set for `key`.
    public static func removeArg(forKey key: String) {
        storage.withLock { $0.runtimeArguments[key] = nil }
    }

    /// Whether `argument` is a launch argument, or a runtime argument's key or value.
    func contains(_ argument: String) -> Bool {
        arguments.contains(argument) || runtimeArguments[argument] != nil
            || runtimeArguments.values.contains(argument)
    }

    static var isDebugBuild: Bool {
        #if DEBUG
            true
        #else
            false
        #endif
    }

    private static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    private static func isRunningTests(arguments: [String]) -> Bool {
        if environment("XCTestConfigurationFilePath") != nil
            || environment("XCTestBundlePath") != nil
        {
            return true
        }
        let program = arguments.first ?? ""
        return program.hasSuffix(".xctest") || program.contains("PackageTests")
    }
}
