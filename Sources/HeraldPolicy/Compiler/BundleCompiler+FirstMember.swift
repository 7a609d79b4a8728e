import HeraldSyntax

// Batch group and digest copy that names its first member (docs/seeds.md P11 part 2):
// `{first.<param>}` (a param of the batch's first member) and `{others}` (count − 1).

/// What a group's copy may name of its first member: the allowed names with their types, the
/// names refused with their own diagnostic (H0297, H0298), and the sensitive params.
struct FirstMemberNames {
    var allowed: [String: ValueType] = [:]
    var refused: [String: (code: DiagnosticCode, message: String)] = [:]
    var sensitive: Set<String> = []
}

extension Compilation {
    /// The types whose notifications a batch group's or digest's batches can hold, in
    /// declaration order: its `members`, the types with a cap of their own that overflows into
    /// it (`over: batch(<group>)` / `digest(<name>)`), and every type a policy cap overflowing
    /// into it may apply to.
    func typesHeld(members: [String], overflow: CapOverflow, types: NamedTable<NotificationType>, policyCaps: [Cap]) -> [String] {
        var held = Set<String>()
        if !members.isEmpty { held.formUnion(typesCovered(by: members)) }
        for type in types.values where type.caps.contains(where: { $0.over == overflow }) { held.insert(type.id) }
        for cap in policyCaps where cap.over == overflow {
            var covered = Set(cap.only.isEmpty ? typeNames : typesCovered(by: cap.only))
            if cap.scope == .category || cap.scope == .type, !cap.match.isEmpty { covered.formIntersection(typesCovered(by: cap.match)) }
            held.formUnion(covered)
        }
        return typeNames.filter(held.contains)
    }

    /// `first.<param>` for each param that every held type declares with one type (optional
    /// when one of them declares it optional, as an absent value renders empty); a param some
    /// held type lacks is refused with H0297, one declared with two types with H0298.
    func firstMemberNames(of owner: String, held: [String]) -> FirstMemberNames {
        var names = FirstMemberNames()
        var declared: [String: [(type: String, param: Param)]] = [:]
        var order: [String] = []
        for type in held {
            for param in paramsByType[type] ?? [] {
                if declared[param.name] == nil { order.append(param.name) }
                declared[param.name, default: []].append((type, param))
            }
        }
        for name in order {
            let uses = declared[name]!
            let placeholder = "first.\(name)"
            if let missing = held.first(where: { type in !uses.contains { $0.type == type } }) {
                names.refused[placeholder] = (.firstParamUndeclared,
                    "`{\(placeholder)}` names param `\(name)`, which `\(missing)` does not declare; every type \(owner) can hold must declare it")
                continue
            }
            let first = uses[0]
            if let other = uses.first(where: { $0.param.type.unwrapped != first.param.type.unwrapped }) {
                names.refused[placeholder] = (.firstParamTypeDiffers,
                    "`{\(placeholder)}`: `\(first.type)` declares `\(name)` as `\(first.param.type.unwrapped)`, `\(other.type)` as `\(other.param.type.unwrapped)`; the types \(owner) can hold must declare it with one type")
                continue
            }
            let optional = uses.contains { $0.param.type.isOptional }
            names.allowed[placeholder] = optional ? .optional(first.param.type.unwrapped) : first.param.type
            if uses.contains(where: { $0.param.sensitive }) { names.sensitive.insert(placeholder) }
        }
        return names
    }

    /// A group's (digest's) copy shows no sensitive param of its first member where the lock
    /// screen shows it: one in `title`, `subtitle` or `body` needs a `lockscreen` (H0329), which
    /// must not show one itself (H0330), as a type's own copy (H0507, H0508).
    mutating func checkFirstSensitive(_ copy: Copy?, owner: String, sensitive: Set<String>) {
        guard let copy, !sensitive.isEmpty else { return }
        for field in copy.fields where field.key != "lockscreen" {
            if let name = field.template.placeholders.first(where: sensitive.contains), copy.lockscreen == nil {
                reader.diagnostics.error(.firstSensitiveWithoutLockscreen,
                                         "\(owner) copy `\(field.key)` shows sensitive `{\(name)}` but has no `lockscreen` variant",
                                         at: field.template.span,
                                         notes: [.init("add `lockscreen:` to `copy` with text that does not show `{\(name)}`")])
                break
            }
        }
        if let lock = copy.lockscreen, let name = lock.placeholders.first(where: sensitive.contains) {
            reader.diagnostics.error(.firstSensitiveOnLockscreen,
                                     "the `lockscreen` copy of \(owner) shows sensitive `{\(name)}`",
                                     at: lock.span, notes: [.init("the lock screen shows it to anyone holding the device")])
        }
    }

    /// The params of the first member that a group's copy and link name (`{first.<param>}`), in
    /// first-use order.
    static func firstParams(copy: Copy?, link: Link?) -> [String] {
        var names: [String] = []
        let templates = (copy?.fields.map(\.template) ?? []) + (link?.bindings.map(\.value) ?? [])
        for template in templates {
            for placeholder in template.placeholders where placeholder.hasPrefix("first.") {
                let name = String(placeholder.dropFirst(6))
                if !names.contains(name) { names.append(name) }
            }
        }
        return names
    }
}
