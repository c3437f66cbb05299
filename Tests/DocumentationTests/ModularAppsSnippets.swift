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

protocol Logging: AnyObject, Sendable {
    func log(_ line: String)
}

protocol Flushing: AnyObject, Sendable {
    func flush()
}

final class DiskLogger: Logging, Flushing {
    func log(_ line: String) {}
    func flush() {}
}

extension Container {
    var diskLogger: Factory<DiskLogger> { self { DiskLogger() }.singleton }
    var logging: Factory<any Logging> { alias(\.diskLogger) { $0 } }
    var flushing: Factory<any Flushing> { alias(\.diskLogger) { $0 } }
}

protocol EventSink: Sendable {
    func send(_ event: String) -> [String]
}

struct ConsoleSink: EventSink {
    func send(_ event: String) -> [String] { [event] }
}

/// Keeps one event in `keepsOneIn`, counting from the first.
final class SampledSink: EventSink, @unchecked Sendable {
    let inner: any EventSink
    let keepsOneIn: Int
    private let seen = Locked(0)
    init(inner: any EventSink, keepsOneIn: Int) {
        (self.inner, self.keepsOneIn) = (inner, keepsOneIn)
    }
    func send(_ event: String) -> [String] {
        let count = seen.withLock {
            $0 += 1; return $0
        }
        return count % keepsOneIn == 1 ? inner.send(event) : []
    }
}

extension Container {
    var eventSink: Factory<any EventSink> { self { ConsoleSink() }.singleton }
}

@Suite struct ModularAppsSnippets {
    @Test func aliasesAreOneInstance() {
        Scope.withIsolatedSingletons {
            let container = Container()
            #expect(container.logging() === container.diskLogger())
            #expect(container.flushing() === container.diskLogger())
        }
    }

    @Test func aModuleWrapsTheEventSink() {
        Scope.withIsolatedSingletons {
            let container = Container()
            container.decorate(\.eventSink, order: 10) { SampledSink(inner: $0, keepsOneIn: 10) }
            let sent = (1...20).flatMap { container.eventSink().send("event \($0)") }
            #expect(sent == ["event 1", "event 11"])
        }
    }

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
