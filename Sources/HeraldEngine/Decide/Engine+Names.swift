import HeraldPolicy

extension Engine {
    /// The value of a name an expression reads by path (`EvaluationContext.value(at:)`),
    /// shared by decisions (`RequestContext`) and prompt decisions (`PromptContext`), which
    /// differ only in what they pass: the trigger instant (`trigger.at` and `local.*` read
    /// it; a prompt's is `now`), their converted fields, params and subject (a prompt has
    /// neither). `local` is the instant `local.*` reads (the trigger, or the delivery instant
    /// of a type judged at delivery); `delivery` the candidate delivery instant, nil where
    /// none was computed (prompts, types that read no `delivery.*`). nil: absent or not a name.
    func value(at path: [String], trigger: Int, now: Int, local localAt: Int? = nil, delivery: Int? = nil,
               prefs: EffectivePreferences, input: PreferencesInput,
               field: (Int) -> Value?, param: (String) -> Value?, subject: () -> String?) -> Value? {
        guard let root = path.first else { return nil }
        switch root {
        case "state", "user":
            guard let slot = fieldSlots[path] else { return nil }
            return field(slot)
        case "params":
            return path.count == 2 ? param(path[1]) : nil
        case "now":
            return .instant(now)
        case "subject":
            return subject().map(Value.string)
        case "trigger":
            return path.count == 2 && path[1] == "at" ? .instant(trigger) : nil
        case "local":
            guard path.count == 2 else { return nil }
            let local = prefs.zone.localDateTime(of: localAt ?? trigger)
            switch path[1] {
            case "date": return .date(local.date)
            case "weekday": return .weekday(local.weekday)
            case "time": return .time(local.secondOfDay)
            default: return nil
            }
        case "delivery":
            guard path.count == 2, let delivery else { return nil }
            if path[1] == "at" { return .instant(delivery) }
            let local = prefs.zone.localDateTime(of: delivery)
            switch path[1] {
            case "date": return .date(local.date)
            case "weekday": return .weekday(local.weekday)
            case "time": return .time(local.secondOfDay)
            default: return nil
            }
        case "prefs":
            return preferenceValue(path, prefs: prefs, input: input)
        default:
            return nil
        }
    }
}
