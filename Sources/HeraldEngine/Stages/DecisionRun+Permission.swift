import HeraldPolicy
import HeraldSyntax

extension DecisionRun {
    // MARK: 4. Permission

    mutating func checkPermission() -> Verdict? {
        let needsPermission = hasChannel && borrowing { table, _ in
            Self.channel(channelIndex, in: table)?.permission ?? false
        }
        guard needsPermission, context.permission == .denied, let chosen = channel else {
            if needsPermission, table.provisionalPassive, context.permission == .provisional {
                step(.permission, .pass, table.cite.provisional,
                     detail: .lazy { "provisional permission: delivered quietly (passive, no sound, no badge)" })
            } else {
                step(.permission, .pass)
            }
            return nil
        }
        let denied = chosen.name
        if let fallbackChannel = table.fallbackChoice {
            usedFallback = true
            channelIndex = -1
            let to = fallbackChannel.name
            step(.permission, .pass, table.cite.fallback,
                 detail: .lazy { "permission denied for `\(denied)`; falling back to `\(to)`" })
            return nil
        }
        return Verdict(reason: .systemDenied, citation: table.cite.channels,
                       detail: .lazy { "OS permission denied for `\(denied)` and no fallback" })
    }
}
