import HeraldContract
import HeraldEngine

/// Draws concrete JSON values from a scenario's value specs with the user's generator.
enum ValueDraw {
    static func draw(_ spec: ValueSpec, random: inout SimulationRandom, user: String, counter: inout Int, at: Int) -> JSON {
        drawOrUnset(spec, random: &random, user: user, counter: &counter, at: at) ?? .null
    }

    /// nil: a pick whose weights add up to less than 1 left the value unset (an object drops
    /// the field, so the policy's default applies).
    static func drawOrUnset(_ spec: ValueSpec, random: inout SimulationRandom, user: String, counter: inout Int, at: Int) -> JSON? {
        switch spec {
        case .literal(let json): return json
        case .object(let fields):
            // One allocation for the members (a trigger's params are drawn per decision).
            var members: [JSON.Member] = []
            members.reserveCapacity(fields.count)
            for field in fields {
                if let value = drawOrUnset(field.1, random: &random, user: user, counter: &counter, at: at) {
                    members.append(JSON.Member(field.0, value))
                }
            }
            return .object(members)
        case .array(let items):
            return .array(items.map { draw($0, random: &random, user: user, counter: &counter, at: at) })
        case .pick(let options, let cumulative):
            let u = random.unit()
            guard let last = cumulative.last, u < last else { return nil }
            var low = 0, high = cumulative.count - 1
            while low < high {
                let mid = (low + high) / 2
                if cumulative[mid] > u { high = mid } else { low = mid + 1 }
            }
            return draw(options[low], random: &random, user: user, counter: &counter, at: at)
        case .unique(let prefix):
            counter += 1
            var text = prefix
            text.reserveCapacity(prefix.utf8.count + user.utf8.count + 8)
            text += "-"
            text += user
            text += "-"
            text += String(counter)
            return .string(text)
        case .range(let range):
            return .int(random.int(in: range.lowerBound..<(range.upperBound + 1)))
        case .instant(let offset):
            return .string(RFC3339.format(at + offset, offsetSeconds: 0))
        }
    }

    /// `overlay` over `base`, object fields merged recursively; anything else replaces.
    static func merge(_ base: JSON, _ overlay: JSON) -> JSON {
        guard case .object(var members) = base, case .object(let extra) = overlay else { return overlay }
        for member in extra {
            if let i = members.firstIndex(where: { $0.key == member.key }) {
                members[i].value = merge(members[i].value, member.value)
            } else {
                members.append(member)
            }
        }
        return .object(members)
    }
}

/// `HH:MM` of a local minute of the day.
func hhmm(_ minute: Int) -> String {
    let h = minute / 60, m = minute % 60
    return (h < 10 ? "0" : "") + String(h) + ":" + (m < 10 ? "0" : "") + String(m)
}
