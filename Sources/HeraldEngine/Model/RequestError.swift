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
///
/// At most `listLimit` problems are kept; the rest are only counted (`omitted`), so a hostile
/// request of 100,000 unknown params costs a count, not 100,000 messages.
public struct RequestErrors: Error, Sendable, Equatable, CustomStringConvertible {
    /// The most problems listed.
    public static let listLimit = 100

    /// The first `listLimit` problems, in document order.
    public private(set) var errors: [RequestError]
    /// How many more problems there were.
    public private(set) var omitted: Int

    public init(_ errors: [RequestError] = []) {
        self.errors = Array(errors.prefix(Self.listLimit))
        self.omitted = errors.count - self.errors.count
    }

    /// Whether no problem was found.
    public var isEmpty: Bool { errors.isEmpty && omitted == 0 }

    /// Adds a problem; past `listLimit`, counts it without building it.
    public mutating func append(_ error: @autoclosure () -> RequestError) {
        if errors.count < Self.listLimit { errors.append(error()) } else { omitted += 1 }
    }

    public mutating func append(contentsOf other: RequestErrors) {
        for error in other.errors { append(error) }
        omitted += other.omitted
    }

    /// The same problems, each with its path under `prefix` (`candidates[2].`).
    public func prefixed(_ prefix: String) -> RequestErrors {
        var result = RequestErrors(errors.map { RequestError(path: prefix + $0.path, message: $0.message, code: $0.code) })
        result.omitted = omitted
        return result
    }

    /// The paths of the problems, for tests and logs.
    public var paths: [String] { errors.map(\.path) }

    /// One problem per line, then how many more there were.
    public var description: String {
        let lines = errors.map(\.description) + (omitted > 0 ? ["… and \(omitted) more"] : [])
        return lines.joined(separator: "\n")
    }
}
