public import HeraldSyntax

/// The top-level sections of every file of a bundle, merged: named sections entry by entry,
/// list sections concatenated in file order, single-valued sections taken once. What the
/// compiler reads.
public struct BundleSections: Sendable {
    /// A single-valued section (`app`, `defaults`, `badge`, …) and the key that introduced it.
    public struct Single: Sendable {
        public var key: YAMLKey
        public var value: YAMLNode
    }

    /// Named sections: every entry, in file then document order.
    public private(set) var named: [String: [YAMLPair]] = [:]
    /// List sections: every item, in file then document order.
    public private(set) var lists: [String: [YAMLNode]] = [:]
    /// Single-valued sections.
    public private(set) var singles: [String: Single] = [:]
    /// The key of each section's first appearance.
    public private(set) var sectionKeys: [String: YAMLKey] = [:]
    /// Section → entry name → the key that first defined it, so duplicate checks are O(1).
    private var firstKeys: [String: [String: YAMLKey]] = [:]

    public init() {}

    /// Whether any file declared the section.
    public func has(_ section: String) -> Bool { sectionKeys[section] != nil }

    /// Merges one file's root node. Unknown top-level keys are `H0201`; an entry, or a
    /// single-valued section, that an earlier file already defined is `H0005`.
    public mutating func merge(_ root: YAMLNode, diagnostics: inout Diagnostics) {
        var reader = NodeReader()
        guard let fields = reader.fields(root, LanguageKeys.topLevel) else {
            diagnostics.append(contentsOf: reader.diagnostics)
            return
        }
        diagnostics.append(contentsOf: reader.diagnostics)
        for pair in fields.pairs {
            let section = pair.key.value
            guard LanguageKeys.topLevel.keys.contains(section) else { continue }
            if sectionKeys[section] == nil { sectionKeys[section] = pair.key }
            if LanguageKeys.namedSections.contains(section) {
                guard let entries = pair.value.isNull ? [] : pair.value.mapping else {
                    diagnostics.error(.wrongShape, "expected a mapping for `\(section)`, found \(pair.value.shapeDescription)", at: pair.value.span)
                    continue
                }
                for entry in entries {
                    if let first = firstKeys[section]?[entry.key.value] {
                        diagnostics.error(.duplicateDefinition,
                                          "`\(entry.key.value)` is defined twice in `\(section)`",
                                          at: entry.key.span,
                                          notes: [.init("first defined here", span: first.span)])
                    } else {
                        firstKeys[section, default: [:]][entry.key.value] = entry.key
                        named[section, default: []].append(entry)
                    }
                }
            } else if LanguageKeys.listSections.contains(section) {
                guard let items = pair.value.isNull ? [] : pair.value.sequence else {
                    diagnostics.error(.wrongShape, "expected a list for `\(section)`, found \(pair.value.shapeDescription)", at: pair.value.span)
                    continue
                }
                lists[section, default: []].append(contentsOf: items)
            } else if let first = singles[section] {
                diagnostics.error(.duplicateDefinition, "`\(section)` is defined twice", at: pair.key.span,
                                  notes: [.init("first defined here", span: first.key.span)])
            } else {
                singles[section] = Single(key: pair.key, value: pair.value)
            }
        }
    }
}
