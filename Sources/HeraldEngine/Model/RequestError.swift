/// One problem with one field of a decision request.
public struct RequestError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where, as `history[3].deliverAt` or `prefs.quietHours.start`; `request` for the whole.
    public var path: String
    /// What is wrong, lowercase, one line: `expected an RFC 3339 instant, got "tomorrow"`.
    public var message: String
    /// The stable code of a problem that has one (`H0256` a preference outside its `allowed`
    /// values, `H0257` empty quiet hours); nil for the shape and type problems of the contract.
    public var code: String?

    public init(path: String, message: String, code: String? = nil) {
        self.path = path
        self.message = message
        self.code = code
    }

    /// `path: message`.
    public var description: String { "\(path): \(message)" }
}

/// Every problem found in a request, in document order. Decoding collects them all so the
/// caller can fix a request in one round trip.
public struct RequestErrors: Error, Sendable, Equatable, CustomStringConvertible {
    public var errors: [RequestError]

    public init(_ errors: [RequestError]) {
        self.errors = errors
    }

    /// The paths of the problems, for tests and logs.
    public var paths: [String] { errors.map(\.path) }

    /// One problem per line.
    public var description: String { errors.map(\.description).joined(separator: "\n") }
}
