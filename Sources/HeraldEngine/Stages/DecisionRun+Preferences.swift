import HeraldPolicy
import HeraldSyntax

extension DecisionRun {
    // MARK: 3. Preferences

    mutating func checkPreferences() -> Verdict? {
        if context.prefs.pausedAll && !table.lockSkipsPausedAll {
            return Verdict(reason: .pausedAll, citation: table.cite.pausedAll,
                           detail: .text("the user paused all notifications"))
        }
        if let requires = table.requiresEval, !borrowing({ _, context in requires.evaluateBool(context) }) {
            let source = table.category?.requires?.source ?? ""
            return Verdict(reason: .categoryOff, citation: table.cite.categoryRequires,
                           detail: .lazy { "`\(source)` is false" })
        }
        // With the category off, only the channels it keeps (`keepChannels`) can still be
        // chosen; without any, the category toggle decides here.
        var keptOnly = false
        if !table.lockSkipsCategoryOff && !(context.input.categories.isEmpty ? table.categoryDefaultOn
                        : context.input.categories[type.category] ?? table.categoryDefaultOn) {
            guard table.hasKeptChannels else { return categoryOff() }
            keptOnly = true
        }
        if !table.lockSkipsTypeOff && !(context.input.types.isEmpty ? type.defaultOn : context.input.types[type.id] ?? type.defaultOn) {
            let id = type.id, byDefault = context.input.types[type.id] == nil
            return Verdict(reason: .typeOff, citation: table.cite.typeToggle,
                           detail: .lazy { byDefault ? "`\(id)` is off by default" : "the user turned `\(id)` off" })
        }
        // The first channel whose master toggle and category-channel toggle are on.
        // A locked type or category (security alerts, one-time codes) is exempt from the
        // channel toggles unless the policy's `exemptions.locked` leaves out `channel_off`.
        let locked = table.lockSkipsChannelOff
        let only = onlyChannel
        let chosen: Int? = borrowing { table, context in
            table.channelChoices.indices.first { index in
                if only >= 0, index != Int(only) { return false }
                if locked { return true }
                return withBorrowed(table.channelChoices[index]) { ch in
                    if keptOnly, !ch.kept { return false }
                    if ch.toggle, !(context.input.channels.isEmpty ? ch.defaultOn
                                    : (context.input.channels[ch.name] ?? ch.defaultOn)) { return false }
                    return context.input.categories.isEmpty ? ch.categoryDefaultOn
                        : (context.input.categories[ch.categoryKey] ?? ch.categoryDefaultOn)
                }
            }
        }
        hasChannel = chosen != nil
        channelIndex = Int16(truncatingIfNeeded: chosen ?? 0)
        guard hasChannel else {
            // The category is off and no kept channel is on: the category toggle decided.
            if keptOnly { return categoryOff() }
            let id = type.id
            let channels = only >= 0 ? [type.channels[Int(only)]] : type.channels
            return Verdict(reason: .channelOff, citation: table.cite.channels,
                           detail: .lazy { "every channel of `\(id)` is off: " + channels.joined(separator: ", ") })
        }
        step(.preferences, .pass, note: .chosenChannel(channelIndex))
        return nil
    }

    /// The category toggle's verdict.
    private func categoryOff() -> Verdict {
        let category = type.category
        return Verdict(reason: .categoryOff, citation: table.cite.categoryToggle,
                       detail: .lazy { "category `\(category)` is off" })
    }
}
