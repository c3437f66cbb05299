/// A situation in which a factory resolves to a different implementation.
public enum FactoryContextType: Hashable, Sendable {
    /// When the launch or runtime arguments contain this argument.
    case arg(String)
    /// When the launch or runtime arguments contain any of these.
    case args([String])
    /// In an Xcode preview.
    case preview
    /// In a test run.
    case test
    /// In a debug build.
    case debug
    /// On a simulator.
    case simulator
    /// On a device (not a simulator).
    case device

    /// The order in which contexts are tried: arguments first, `debug` last.
    var priority: Int {
        switch self {
        case .arg: 0
        case .args: 1
        case .preview: 2
        case .test: 3
        case .simulator: 4
        case .device: 5
        case .debug: 6
        }
    }

    /// Whether this context holds in `context`.
    func holds(in context: FactoryContext) -> Bool {
        switch self {
        case .arg(let argument): context.contains(argument)
        case .args(let arguments): arguments.contains(where: context.contains)
        case .preview: context.isPreview
        case .test: context.isTest
        case .debug: context.isDebug
        case .simulator: context.isSimulator
        case .device: !context.isSimulator
        }
    }
}
