import Depot
import DepotTesting
import Testing

// The snippets of ModularApps.md (the others come from Examples/server and Examples/app).

protocol Interceptor: Sendable {
    func intercept(_ request: String) -> String
}

struct AuthInterceptor: Interceptor {
    func intercept(_ request: String) -> String { request + " +auth" }
}

struct LoggingInterceptor: Interceptor {
    func intercept(_ request: String) -> String { request + " +log" }
}

struct PassThrough: Interceptor {
    func intercept(_ request: String) -> String { request }
}

// The core module declares the collection; each feature module declares its part.
extension Container {
    var interceptors: Factory<[any Interceptor]> { contributions() }
}

extension Container {
    var authInterceptor: Factory<any Interceptor> { self { AuthInterceptor() } }
}

extension Container {
    var loggingInterceptor: Factory<any Interceptor> { self { LoggingInterceptor() }.cached }
}

/// What a logout replaces: the session, and the client built from it.
final class UserSession: Sendable {
    let token: String
    init(token: String) { self.token = token }
}

final class APIClient: Sendable {
    let session: UserSession
    init(session: UserSession) { self.session = session }
}

extension Container {
    var userSession: Factory<UserSession> { self { UserSession(token: "signed in") }.cached }
    var apiClient: Factory<APIClient> { self { APIClient(session: self.userSession()) }.cached }
}

@Suite struct ModularAppsSnippets {
    @Test func modulesContributeInOrder() {
        let container = Container()
        container.contribute(\.authInterceptor, to: \.interceptors)
        container.contribute(\.loggingInterceptor, to: \.interceptors, order: 10)
        let request = container.interceptors().reduce("GET /") { $1.intercept($0) }
        #expect(request == "GET / +auth +log")
    }

    @Test(
        .container {
            $0.contribute(\.authInterceptor, to: \.interceptors)
            $0.contribute(\.loggingInterceptor, to: \.interceptors, order: 10)
            $0.authInterceptor.register { PassThrough() }
        })
    func aTestReplacesOneContribution() {
        let request = Container.shared.interceptors().reduce("GET /") { $1.intercept($0) }
        #expect(request == "GET / +log")
    }

    @Test func aLogoutRebuildsWhatWasBuiltFromTheSession() {
        let container = Container()
        container.manager.resetsDependents = true
        let before = container.apiClient()
        container.userSession.register { UserSession(token: "signed out") }
        #expect(container.apiClient() !== before)
        #expect(container.apiClient().session.token == "signed out")
    }
}
