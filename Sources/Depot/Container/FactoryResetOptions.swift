/// What a reset forgets.
public enum FactoryResetOptions: Sendable {
    /// Registrations, contexts and cached instances.
    case all
    /// Context overrides only.
    case context
    /// Nothing.
    case none
    /// Registrations only (and modifiers applied after `register`); `autoRegister()` runs again.
    case registration
    /// Cached instances only.
    case scope
}
