#if Server
import HeraldContract
import HeraldEngine
@testable import HeraldServe
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// A known path asked with a method it does not serve is 405 `method_not_allowed` with `Allow`;
/// an unknown path stays 404 `not_found`.
@Suite struct RouteTableTests {
    /// Every route of the table is one the router serves (no 404 `not_found`, no 405), so the
    /// table cannot name a method the server does not answer.
    @Test func everyTableRouteIsServed() async throws {
        let server = try ServeFixtures.server()
        try await ServeFixtures.test(server) { client in
            for route in RouteTable.served.routes {
                let uri = route.path.replacingOccurrences(of: ":name", with: "handz").replacingOccurrences(of: ":id", with: "u-1")
                try await client.execute(uri: uri, method: route.method, headers: ServeFixtures.jsonBody, body: ServeFixtures.body("{}")) { (response) throws in
                    #expect(response.status != .methodNotAllowed, "\(route.method) \(uri)")
                    if response.status == .notFound {
                        #expect(try ServeFixtures.errorCode(response) != "not_found", "\(route.method) \(uri)")
                    }
                }
            }
        }
    }

    struct Case: Sendable, CustomStringConvertible {
        var method: HTTPRequest.Method
        var uri: String
        var allow: String
        var description: String { "\(method) \(uri)" }
    }

    static let wrongMethods: [Case] = [
        Case(method: .get, uri: "/v1/policies/handz/decide", allow: "POST"),
        Case(method: .put, uri: "/v1/policies/nope/plan", allow: "POST"),
        Case(method: .post, uri: "/healthz", allow: "GET, HEAD"),
        Case(method: .delete, uri: "/v1/policies", allow: "GET, HEAD"),
        Case(method: .post, uri: "/v1/users/u-1", allow: "DELETE"),
        Case(method: .patch, uri: "/v1/users/u-1/ledger", allow: "GET, HEAD"),
        Case(method: .get, uri: "/v1/events", allow: "POST"),
        Case(method: .head, uri: "/v1/events", allow: "POST"),
    ]

    @Test(arguments: wrongMethods)
    func wrongMethodIs405WithAllow(_ item: Case) async throws {
        let server = try ServeFixtures.server()
        try await ServeFixtures.test(server) { client in
            try await client.execute(uri: item.uri, method: item.method) { (response) throws in
                #expect(response.status == .methodNotAllowed)
                #expect(response.headers[.allow] == item.allow)
                if item.method != .head {
                    #expect(response.headers[.contentType] == "application/json")
                    let error = try ServeFixtures.json(response)["error"]
                    #expect(error?["code"]?.stringValue == "method_not_allowed")
                    #expect(error?["field"]?.stringValue == "method")
                    #expect(error?["message"]?.stringValue?.contains("`\(item.method.rawValue)`") == true)
                }
            }
        }
    }

    @Test func unknownPathsStay404() async throws {
        let server = try ServeFixtures.server()
        try await ServeFixtures.test(server) { client in
            for uri in ["/v1/nothing", "/v1/policies/handz/decide/more", "/v1/users", "/"] {
                try await client.execute(uri: uri, method: .get) { (response) throws in
                    #expect(response.status == .notFound, "\(uri)")
                    #expect(try ServeFixtures.errorCode(response) == "not_found", "\(uri)")
                    #expect(response.headers[.allow] == nil)
                }
            }
        }
    }

    @Test func tableMatchesSegments() {
        let table = RouteTable.served
        #expect(table.methods(for: "/v1/users/abc") == [.delete])
        #expect(table.methods(for: "/v1/users/abc/ledger") == [.get, .head])
        #expect(table.methods(for: "/v1/policies/x/decide/") == [.post])
        #expect(table.methods(for: "/v1/policies/x") == [])
        #expect(table.methods(for: "") == [])
    }
}
#endif
