internal import HeraldEngine

extension RequestErrors {
    /// The JSON of a request's text, or the parse error as a request error at path `request`
    /// (`line:col: …`). Shared by every request kind (decide, plan, prompt).
    static func parseJSON(_ text: String, limits: JSONLimits) throws(RequestErrors) -> JSON {
        do {
            return try JSON.parse(text, limits: limits)
        } catch {
            throw RequestErrors([RequestError(path: "request", message: "invalid JSON at \(error)")])
        }
    }
}
