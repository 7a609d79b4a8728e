import HeraldSyntax

extension Compilation {
    /// A kept channel (`keepChannels`) that none of the category's types delivers on keeps
    /// nothing: `H0242`, a warning (the bundle still works; the key is probably misspelt or stale).
    mutating func checkKeptChannels(categories: NamedTable<Category>, types: NamedTable<NotificationType>) {
        var used: [String: Set<String>] = [:]
        for type in types { used[type.category, default: []].formUnion(type.channels) }
        for category in categories where !category.keepChannels.isEmpty {
            let span = category.keySpans["keepChannels"] ?? category.span
            for channel in category.keepChannels where !(used[category.name]?.contains(channel) ?? false) {
                reader.diagnostics.warning(.keepChannelNotUsed,
                                           "category `\(category.name)` keeps channel `\(channel)`, but none of its types delivers on it",
                                           at: span)
            }
        }
    }
}
