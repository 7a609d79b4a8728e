import HeraldPolicy

extension Value {
    /// Whether the value is one of `type`'s (`.null` only for an optional).
    func fits(_ type: ValueType) -> Bool {
        switch (type, self) {
        case (.optional, .null): true
        case (.optional(let inner), _): fits(inner)
        case (.bool, .bool), (.int, .int), (.string, .string), (.duration, .duration), (.instant, .instant),
             (.time, .time), (.date, .date), (.weekday, .weekday):
            true
        case (.enumeration(let e), .string(let s)): e.cases.contains(s)
        case (.list(let element), .list(let items)): items.allSatisfy { $0.fits(element) }
        case (.map(let element), .map(let entries)): entries.values.allSatisfy { $0.fits(element) }
        default: false
        }
    }

    /// The value as a message shows it: a string quoted, a number or flag as written.
    var shown: String {
        switch self {
        case .string(let s): "\"" + s.flatMap { $0 == "\"" || $0 == "\\" ? ["\\", $0] : [$0] } + "\""
        case .bool(let b): "\(b)"
        case .int(let n), .duration(let n), .instant(let n), .time(let n), .date(let n), .weekday(let n): "\(n)"
        case .list: "an array"
        case .map: "an object"
        case .null: "null"
        }
    }
}
