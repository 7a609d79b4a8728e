public import HeraldSyntax

/// Checks on a compiled bundle that the compiler's type and reference checks cannot see: rules
/// that never fire, caps that contradict each other, quiet hours that are empty, copy that is too
/// long, banned or leaks sensitive data onto the lock screen. Codes H05xx; see
/// docs/diagnostics/lint.md. Pure: the same bundle gives the same diagnostics, in order.
public enum Lints {
    /// Every lint pass, in the order they run.
    public static let passes: [(name: String, run: @Sendable (PolicyBundle, inout Diagnostics) -> Void)] = [
        ("unreachable-rules", unreachableRules),
        ("cap-contradictions", capContradictions),
        ("empty-quiet-hours", emptyQuietHours),
        ("content", content),
        ("lock-screen", lockScreen),
    ]

    /// Runs every pass. The passes are independent and run concurrently; their diagnostics
    /// come back in pass order, so the result is the same as running them one by one.
    public static func run(_ bundle: PolicyBundle) -> Diagnostics {
        let found = Concurrently.map(passes.map(\.run)) { pass in
            var diagnostics = Diagnostics()
            pass(bundle, &diagnostics)
            return diagnostics
        }
        var diagnostics = Diagnostics()
        for part in found { diagnostics.append(contentsOf: part) }
        return diagnostics
    }

    // MARK: H0501

    /// A rule whose condition is literally `false` never fires; a rule after one with no
    /// condition, a literal `true` condition or the same condition text never gets its turn.
    static func unreachableRules(_ bundle: PolicyBundle, _ diagnostics: inout Diagnostics) {
        func check(_ rules: [SuppressRule], owner: String) {
            var alwaysFires: SuppressRule?
            var seen: [String: SuppressRule] = [:]
            for rule in rules {
                let text = rule.when.map { normalized($0.source) }
                if let earlier = alwaysFires {
                    diagnostics.error(.lintUnreachableRule,
                                      "suppression rule `\(rule.id)` can never fire: `\(earlier.id)` before it always suppresses",
                                      at: rule.span,
                                      notes: [Diagnostic.Note("`\(earlier.id)` is here", span: earlier.span)])
                    continue
                }
                if text == "false" {
                    diagnostics.error(.lintUnreachableRule,
                                      "suppression rule `\(rule.id)` can never fire: its condition is always `false`",
                                      at: rule.when?.span ?? rule.span)
                    continue
                }
                if let text, let earlier = seen[text], earlier.match == rule.match {
                    diagnostics.error(.lintUnreachableRule,
                                      "suppression rule `\(rule.id)` can never fire: `\(earlier.id)` has the same condition and fires first",
                                      at: rule.when?.span ?? rule.span,
                                      notes: [Diagnostic.Note("`\(earlier.id)` is here", span: earlier.span)])
                    continue
                }
                if text == nil || text == "true", rule.match.isEmpty { alwaysFires = rule }
                if let text { seen[text] = seen[text] ?? rule }
            }
            _ = owner
        }
        for type in bundle.types { check(type.suppress, owner: type.id) }
        check(bundle.suppress, owner: "policy")
    }

    /// Expression text without spaces, so `a==1` and `a == 1` compare equal.
    static func normalized(_ source: String) -> String {
        String(source.unicodeScalars.filter { $0 != " " && $0 != "\t" && $0 != "\n" })
    }

    // MARK: H0502, H0503, H0509

    static func capContradictions(_ bundle: PolicyBundle, _ diagnostics: inout Diagnostics) {
        var all: [Cap] = []
        for type in bundle.types { all.append(contentsOf: type.caps) }
        all.append(contentsOf: bundle.caps)
        let limited = all.filter { $0.per != nil && $0.max != nil }

        func fixed(_ cap: Cap) -> Int? {
            if case .fixed(let n)? = cap.max { return n }
            return nil
        }
        // Caps that count the same thing: same scope, owner, window, match, only and exempt.
        // Grouped first, so the pairwise checks stay linear in the number of caps.
        struct CountKey: Hashable {
            var scope: CapScope
            var owner: String?
            var per: CapWindow?
            var match: [String]
            var only: [String]
            var exempt: [String]
        }
        var groups: [CountKey: [Cap]] = [:]
        var order: [CountKey] = []
        for cap in limited {
            let key = CountKey(scope: cap.scope, owner: cap.owner, per: cap.per, match: cap.match.sorted(),
                               only: cap.only.sorted(), exempt: cap.exempt.sorted())
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(cap)
        }
        for key in order {
            let group = groups[key]!
            guard group.count > 1 else { continue }
            for soft in group where soft.over != .suppress {
                guard let softMax = fixed(soft) else { continue }
                for hard in group where hard.over == .suppress {
                    guard let hardMax = fixed(hard), softMax > hardMax else { continue }
                    diagnostics.error(.lintSoftCapAboveHardCap,
                                      "soft cap `\(soft.id)` allows \(softMax) but hard cap `\(hard.id)` on the same scope and window stops at \(hardMax), so `\(soft.id)` never acts",
                                      at: soft.span,
                                      notes: [Diagnostic.Note("`\(hard.id)` is here", span: hard.span)])
                }
            }
            for (i, a) in group.enumerated() {
                for b in group[(i + 1)...] where a.over == b.over {
                    guard let x = fixed(a), let y = fixed(b), x == y else { continue }
                    diagnostics.warning(.lintDuplicateCap,
                                        "cap `\(b.id)` repeats cap `\(a.id)` (same scope, match, window and limit)",
                                        at: b.span,
                                        notes: [Diagnostic.Note("`\(a.id)` is here", span: a.span)])
                }
            }
        }
        // A zero cap on a type that is on by default.
        for cap in limited where fixed(cap) == 0 && cap.cooldown == nil {
            for type in bundle.types where type.defaultOn && applies(cap, to: type, in: bundle) {
                diagnostics.warning(.lintZeroCapOnDefaultType,
                                    "cap `\(cap.id)` allows 0 notifications, but `\(type.id)` is on by default and would never be delivered",
                                    at: cap.span,
                                    notes: [Diagnostic.Note("`\(type.id)` is declared here", span: type.span)])
            }
        }
    }

    /// Whether a cap limits a type (its owner, its `match`/`only` by type, category or channel).
    static func applies(_ cap: Cap, to type: NotificationType, in bundle: PolicyBundle) -> Bool {
        if let owner = cap.owner { return owner == type.id }
        let names = Set([type.id, type.category] + type.channels)
        if cap.exempt.contains(where: names.contains) { return false }
        if !cap.match.isEmpty && !cap.match.contains(where: names.contains) { return false }
        if !cap.only.isEmpty && !cap.only.contains(where: names.contains) { return false }
        return true
    }

    // MARK: H0504

    static func emptyQuietHours(_ bundle: PolicyBundle, _ diagnostics: inout Diagnostics) {
        guard let quiet = bundle.defaults.quietHours, quiet.start % 86_400 == quiet.end % 86_400 else { return }
        let time = String(format2(quiet.start / 3600)) + ":" + format2(quiet.start % 3600 / 60)
        diagnostics.warning(.lintEmptyQuietHours,
                            "quiet hours start and end at `\(time)`: the window is empty; write `quietHours: null` for no quiet hours",
                            at: bundle.defaults.span)
    }

    static func format2(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

    // MARK: H0505, H0506

    /// Every copy field of the bundle with a name for messages.
    static func copyFields(_ bundle: PolicyBundle) -> [(owner: String, key: String, template: MessageTemplate)] {
        var fields: [(String, String, MessageTemplate)] = []
        for type in bundle.types {
            for field in type.copy?.fields ?? [] { fields.append((type.id, field.key, field.template)) }
        }
        for group in bundle.batching {
            for field in group.copy?.fields ?? [] { fields.append(("batching.\(group.name)", field.key, field.template)) }
        }
        for digest in bundle.digests {
            for field in digest.copy?.fields ?? [] { fields.append(("digests.\(digest.name)", field.key, field.template)) }
        }
        return fields
    }

    static func content(_ bundle: PolicyBundle, _ diagnostics: inout Diagnostics) {
        let rules = bundle.content
        let banned = rules.banned.map { ($0, Array($0.lowercased().unicodeScalars)) }
        let review = rules.review.map { ($0, Array($0.lowercased().unicodeScalars)) }
        for (owner, key, template) in copyFields(bundle) {
            if let limit = rules.maxLength, key == "body" || key == "lockscreen" || key == "title" {
                let length = CopyLength.longest(template.source)
                if length > limit {
                    diagnostics.warning(.lintCopyTooLong,
                                        "`\(owner)` copy `\(key)` can render \(length) characters, more than the limit of \(limit) (`content.maxLength`)",
                                        at: template.span)
                }
            }
            let text = Array(template.source.lowercased().unicodeScalars)
            for (word, needle) in review {
                if let offset = wholeWordOffset(of: needle, in: text) {
                    diagnostics.warning(.lintContentReview,
                                        "`\(owner)` copy `\(key)` uses `\(word)`, which asks for a person's review (`content.review`)",
                                        at: wordSpan(template, offset: offset),
                                        notes: [.init("the word is allowed in some contexts only; read the copy, then keep or reword it")])
                }
            }
            for (word, needle) in banned {
                if let offset = wholeWordOffset(of: needle, in: text) {
                    let source = template.source
                    // Point at the word when the scalar maps one-to-one (single-line text).
                    var span = template.span
                    let utf8Offset = String(String.UnicodeScalarView(source.unicodeScalars.prefix(offset))).utf8.count
                    if template.span.start.line == template.span.end.line {
                        span.start.column += utf8Offset + quoteWidth(template)
                        span.start.offset += utf8Offset + quoteWidth(template)
                    }
                    diagnostics.error(.lintBannedWord,
                                      "`\(owner)` copy `\(key)` contains the banned phrase `\(word)` (`content.banned`)",
                                      at: span)
                }
            }
        }
    }

    /// The span of the word at scalar `offset` of a single-line template; the template's span
    /// otherwise.
    static func wordSpan(_ template: MessageTemplate, offset: Int) -> SourceSpan {
        var span = template.span
        let utf8Offset = String(String.UnicodeScalarView(template.source.unicodeScalars.prefix(offset))).utf8.count
        if template.span.start.line == template.span.end.line {
            span.start.column += utf8Offset + quoteWidth(template)
            span.start.offset += utf8Offset + quoteWidth(template)
        }
        return span
    }

    /// 1 when the template's span starts at an opening quote, else 0.
    static func quoteWidth(_ template: MessageTemplate) -> Int {
        let width = template.span.end.column - template.span.start.column
        return width == template.source.unicodeScalars.count + 2 ? 1 : 0
    }

    /// The scalar offset of `needle` in `text` where it stands as whole words.
    static func wholeWordOffset(of needle: [Unicode.Scalar], in text: [Unicode.Scalar]) -> Int? {
        guard !needle.isEmpty, needle.count <= text.count else { return nil }
        func isWord(_ s: Unicode.Scalar) -> Bool { s.properties.isAlphabetic || s.properties.numericType != nil || s == "_" }
        var i = 0
        while i + needle.count <= text.count {
            if text[i..<(i + needle.count)].elementsEqual(needle) {
                let before = i == 0 || !isWord(text[i - 1])
                let after = i + needle.count == text.count || !isWord(text[i + needle.count])
                if before && after { return i }
            }
            i += 1
        }
        return nil
    }

    // MARK: H0507, H0508

    static func lockScreen(_ bundle: PolicyBundle, _ diagnostics: inout Diagnostics) {
        for type in bundle.types {
            let sensitiveParams = Set(type.params.filter(\.sensitive).map(\.name))
            guard !sensitiveParams.isEmpty, let copy = type.copy else { continue }
            // What a template may show that reveals a sensitive param: the param itself, and a
            // computed value that reads it, whatever its type (`isPositive: "params.result ==
            // 'positive'"` says as much as the result).
            var reveals: [String: String] = [:]
            for name in sensitiveParams { reveals[name] = name }
            for value in type.computed {
                if let path = value.expression.referencedPaths.first(where: { $0.count >= 2 && $0[0] == "params" && sensitiveParams.contains($0[1]) }) {
                    reveals[value.name] = path[1]
                }
            }
            func shown(_ name: String) -> String {
                guard let param = reveals[name], param != name else { return "sensitive param `\(name)`" }
                return "computed value `\(name)` (it reads sensitive param `\(param)`)"
            }
            for field in copy.fields where field.key != "lockscreen" {
                if let name = field.template.placeholders.first(where: { reveals[$0] != nil }), copy.lockscreen == nil {
                    diagnostics.error(.lintSensitiveWithoutLockscreen,
                                      "`\(type.id)` copy `\(field.key)` shows \(shown(name)) but the type has no `lockscreen` variant",
                                      at: field.template.span,
                                      notes: [Diagnostic.Note("add `lockscreen:` to `copy` with text that does not show `\(name)`")])
                }
            }
            if let lock = copy.lockscreen, let name = lock.placeholders.first(where: { reveals[$0] != nil }) {
                diagnostics.error(.lintSensitiveOnLockscreen,
                                  "`\(type.id)` lock-screen copy shows \(shown(name))",
                                  at: lock.span)
            }
        }
    }
}
