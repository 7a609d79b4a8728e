import HeraldSyntax

/// Optional route params (`params: { importId: "string?" }`, docs/templates.md): an optional
/// param is the whole value of one query item (`?highlight={importId}`), and a link whose value
/// for it is absent or empty leaves the item out, so one route gives both the bare screen
/// (`handz://inbox`) and the focused one (`handz://inbox?highlight=imp-1`).
extension RouteTemplate {
    /// Checks that every optional param's placeholder is the whole value of a query item:
    /// right after `?name=` or `&name=` and followed by the end, `&` or `#` (`H0267`).
    static func checkOptionalPlacement(
        _ pieces: [Piece], optional: Set<String>, source: String, span: SourceSpan,
        diagnostics: inout Diagnostics
    ) -> Bool {
        var ok = true
        var seenQuery = false
        for (index, piece) in pieces.enumerated() {
            switch piece {
            case .text(let text):
                if text.contains("?") { seenQuery = true }
            case .param(let name) where optional.contains(name):
                var placed = false
                if seenQuery, index > 0, case .text(let before) = pieces[index - 1], before.hasSuffix("=") {
                    let key = before.dropLast().reversed().prefix { $0 != "?" && $0 != "&" }
                    let hasSeparator = before.dropLast().count > key.count
                    let keyIsName = !key.isEmpty && !key.contains { "=#/{}".contains($0) }
                    var endsItem = index + 1 == pieces.count
                    if index + 1 < pieces.count, case .text(let after) = pieces[index + 1] {
                        endsItem = after.hasPrefix("&") || after.hasPrefix("#")
                    }
                    placed = hasSeparator && keyIsName && endsItem
                }
                if !placed {
                    diagnostics.error(.routeOptionalPlacement,
                                      "optional route param `\(name)` must be the whole value of a query item, such as `?\(name)={\(name)}`, so that an absent value can leave the item out",
                                      at: span)
                    ok = false
                }
            case .param:
                break
            }
        }
        return ok
    }

    /// Renders like `render(_:)`, leaving out the query item of each optional param whose value
    /// is absent or empty (with its `?` or `&`; a following `&` then becomes the `?`).
    func renderDroppingAbsent(_ values: (String) -> String?) -> String {
        var out = ""
        var droppedQuestionMark = false
        for piece in pieces {
            switch piece {
            case .text(let t):
                if droppedQuestionMark, t.hasPrefix("&") {
                    out += "?" + t.dropFirst()
                } else {
                    out += t
                }
                droppedQuestionMark = false
            case .param(let name):
                let value = values(name) ?? ""
                if value.isEmpty, optional.contains(name),
                   let separator = out.lastIndex(where: { $0 == "?" || $0 == "&" }) {
                    droppedQuestionMark = out[separator] == "?"
                    out.removeSubrange(separator...)
                    continue
                }
                out += RouteTemplate.percentEncode(value)
            }
        }
        return out
    }
}
