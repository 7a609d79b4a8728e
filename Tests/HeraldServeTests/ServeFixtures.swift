#if Server
import Foundation
import HeraldContract
import HeraldEngine
import HeraldServe
import HeraldStore
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging

/// Servers over the repository's policies (or a temporary copy), in process.
enum ServeFixtures {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    static var logger: Logger {
        var logger = Logger(label: "herald.serve.tests", factory: { _ in SwiftLogNoOpLogHandler() })
        logger.logLevel = .critical
        return logger
    }

    static func server(
        policies: String = root + "/policies", store: any LedgerStore = InMemoryLedgerStore(),
        configure: (inout ServeConfiguration) -> Void = { _ in }
    ) throws -> HeraldServer {
        var configuration = ServeConfiguration(policiesDirectory: policies)
        // Tests edit a bundle and reload at once; `PolicyReloadTests` sets a quiet period.
        configuration.reloadQuietPeriod = .zero
        // The whole suite runs at once on two cores: a request can wait seconds for a thread,
        // and a unit past its deadline records nothing. Tests of the limit set their own.
        configuration.requestTimeout = .seconds(120)
        configure(&configuration)
        return try HeraldServer(configuration: configuration, store: store, logger: logger)
    }

    /// Runs `body` against the server's router, without a socket.
    static func test(_ server: HeraldServer, _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        let app = Application(router: server.router(), logger: logger)
        try await app.test(.router, body)
    }

    /// docs/examples/due-today.json without its `history`.
    static func dueToday(user: String = "u-1842") throws -> String {
        let text = try String(contentsOfFile: root + "/docs/examples/due-today.json", encoding: .utf8)
        var json = try JSON.parse(text)
        guard case .object(var members) = json else { return text }
        members.removeAll { $0.key == "history" }
        for index in members.indices where members[index].key == "user" {
            members[index].value = ["id": .string(user), "account": true, "tier": "pro", "credits": 0]
        }
        json = .object(members)
        return json.serialized()
    }

    /// A temporary directory holding `catalog/handz` and `policies/handz`; returns its path.
    static func copyOfHandz() throws -> String {
        let manager = FileManager.default
        let directory = manager.temporaryDirectory.appendingPathComponent("herald-serve-\(UUID().uuidString)").path
        for part in ["catalog/handz", "policies/handz"] {
            try manager.createDirectory(atPath: directory + "/" + (part as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try manager.copyItem(atPath: root + "/" + part, toPath: directory + "/" + part)
        }
        return directory
    }

    static func body(_ text: String) -> ByteBuffer { ByteBuffer(string: text) }

    /// The header every JSON body is sent with (`RequestBodyReader` answers 415 without it).
    static let jsonBody: HTTPFields = [.contentType: "application/json"]

    /// The response's JSON.
    static func json(_ response: TestResponse) throws -> JSON {
        try JSON.parse(String(buffer: response.body))
    }

    /// `error.code` of an error response.
    static func errorCode(_ response: TestResponse) throws -> String? {
        try json(response)["error"]?["code"]?.stringValue
    }
}
#endif
