import HeraldEngine
import HeraldPolicy
import HeraldSyntax

/// Converts request JSON to expression values by declared type, collecting problems.
struct ValueReader {
    var errors = RequestErrors()

    /// Reports a member the schema does not declare, with the closest declared name.
    mutating func unknown(_ key: String, in node: SchemaSlotNode) {
        errors.append({
            var message = "unknown field `\(key)`"
            if let close = Suggestions.closest(to: key, in: node.children.keys.sorted()) { message += "; did you mean `\(close)`?" }
            return RequestError(path: node.path + "." + key, message: message)
        }())
    }

    mutating func fail(_ path: String, _ expected: String, _ value: JSON) {
        errors.append({
            let shown: String
            switch value {
            case .array, .object: shown = value.kindName
            default: shown = value.serialized()
            }
            return RequestError(path: path, message: "expected \(expected), got \(shown)")
        }())
    }

    /// nil for `null` of an optional (absent) and for a problem (reported).
    mutating func convert(_ json: JSON, as type: ValueType, path: @autoclosure () -> String) -> Value? {
        if json.isNull {
            if type.isOptional { return nil }
            fail(path(), Self.describe(type), json)
            return nil
        }
        switch type.unwrapped {
        case .bool:
            if let b = json.boolValue { return .bool(b) }
        case .int:
            if let i = json.intValue { return .int(i) }
        case .duration:
            if let i = json.intValue { return .duration(i) }
        case .string:
            if let s = json.stringValue { return .string(s) }
        case .enumeration(let e):
            if let s = json.stringValue, e.cases.contains(s) { return .string(s) }
        case .instant:
            if let s = json.stringValue {
                if let t = ContractTime.parseInstant(s) { return .instant(t) }
                if RFC3339.isOutOfRange(s) {
                    fail(path(), RFC3339.rangeExpectation, json)
                    return nil
                }
            }
        case .time:
            if let s = json.stringValue, let t = ContractTime.parseTimeOfDay(s) { return .time(t) }
        case .date:
            if let s = json.stringValue, let d = Self.parseDate(s) { return .date(d) }
        case .weekday:
            if let s = json.stringValue, let i = PreferencesInput.weekdayNames.firstIndex(of: s) { return .weekday(i + 1) }
        case .list(let element):
            if let items = json.elements {
                var result: [Value] = []
                for (index, item) in items.enumerated() {
                    if let v = convert(item, as: element, path: "\(path())[\(index)]") { result.append(v) }
                }
                return .list(result)
            }
        case .map(let element):
            if case .object(let members) = json {
                var result: [String: Value] = [:]
                result.reserveCapacity(members.count)
                for member in members {
                    if let v = convert(member.value, as: element, path: "\(path())[\(member.key)]") { result[member.key] = v }
                }
                return .map(result)
            }
        case .optional:
            break
        }
        fail(path(), Self.describe(type), json)
        return nil
    }

    static func describe(_ type: ValueType) -> String {
        switch type.unwrapped {
        case .bool: "true or false"
        case .int: "an integer"
        case .duration: "a duration in seconds"
        case .string: "a string"
        case .enumeration(let e): "one of " + e.cases.joined(separator: ", ")
        case .instant: "an RFC 3339 instant"
        case .time: "a time of day \"HH:MM\""
        case .date: "a date \"YYYY-MM-DD\""
        case .weekday: "a weekday (mon … sun)"
        case .list(let t): "an array of \(describe(t).replacingFirstArticle())"
        case .map(let t): "an object of \(describe(t).replacingFirstArticle())"
        case .optional(let t): describe(t)
        }
    }

    /// `YYYY-MM-DD` → days since 1970-01-01.
    static func parseDate(_ text: String) -> Int? {
        let b = Array(text.utf8)
        guard b.count == 10, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var n = 0
            for i in range {
                guard b[i] >= 48, b[i] <= 57 else { return nil }
                n = n * 10 + Int(b[i] - 48)
            }
            return n
        }
        guard let y = number(0..<4), let m = number(5..<7), let d = number(8..<10) else { return nil }
        let date = CivilDate(year: y, month: m, day: d)
        return date.isValid ? date.days : nil
    }
}

private extension String {
    func replacingFirstArticle() -> String {
        if hasPrefix("an ") { return String(dropFirst(3)) + "s" }
        if hasPrefix("a ") { return String(dropFirst(2)) + "s" }
        return self
    }
}
