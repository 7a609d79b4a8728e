/// A set of history entries counted together by a cap, cooldown or dedupe rule.
public enum LedgerScope: Sendable, Hashable, CustomStringConvertible {
    /// Every counted entry, with each batch counted once (see `LedgerIndex`).
    case global
    case type(String)
    /// All types of a category, through the type → category mapping given to the index.
    case category(String)
    case channel(String)
    case subject(String)
    /// One type about one subject (`N-WARRANTY-EXPIRING` for item `42`).
    case typeSubject(type: String, subject: String)

    public var description: String {
        switch self {
        case .global: "global"
        case .type(let t): "type \(t)"
        case .category(let c): "category \(c)"
        case .channel(let c): "channel \(c)"
        case .subject(let s): "subject \(s)"
        case .typeSubject(let t, let s): "type \(t) subject \(s)"
        }
    }
}
