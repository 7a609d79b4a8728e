#if Server
import Foundation
import HeraldContract
import HeraldEngine
public import Logging

/// A swift-log handler that writes one JSON object a line:
/// `{"ts","level","msg","label", <metadata>…}` (a request's lines carry `request_id`). Lines go to
/// a file descriptor (standard error by default) with one `write(2)` each, so lines from concurrent
/// requests never interleave.
public struct JSONLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    public var logLevel: Logger.Level = .info
    let label: String
    let descriptor: Int32

    public init(label: String, descriptor: Int32 = 2) {
        self.label = label
        self.descriptor = descriptor
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var members: [JSON.Member] = [
            .init("ts", .string(Self.timestamp())),
            .init("level", .string(event.level.rawValue)),
            .init("msg", .string(event.message.description)),
            .init("label", .string(label)),
        ]
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
        if let extra = event.metadata { merged.merge(extra) { _, new in new } }
        for key in merged.keys.sorted() {
            members.append(.init(key, Self.json(merged[key]!)))
        }
        let line = Array((JSON.object(members).serialized() + "\n").utf8)
        line.withUnsafeBytes { bytes in
            _ = write(descriptor, bytes.baseAddress, bytes.count)
        }
    }

    static func json(_ value: Logger.MetadataValue) -> JSON {
        switch value {
        case .string(let text): .string(text)
        case .stringConvertible(let value): .string(value.description)
        case .array(let values): .array(values.map(json))
        case .dictionary(let values): .object(values.keys.sorted().map { .init($0, json(values[$0]!)) })
        }
    }

    /// UTC, milliseconds: `2026-11-25T19:04:05.123Z`.
    static func timestamp() -> String {
        let now = Date().timeIntervalSince1970
        let seconds = Int(now.rounded(.down))
        let millis = Int((now - Double(seconds)) * 1000)
        let base = RFC3339.format(seconds, offsetSeconds: 0)
        let digits = String(millis)
        let padded = String(repeating: "0", count: 3 - digits.count) + digits
        return base.hasSuffix("Z") ? String(base.dropLast()) + "." + padded + "Z" : base
    }
}
#endif
