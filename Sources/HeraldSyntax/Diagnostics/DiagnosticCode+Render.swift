// H0280–H0299 (issue 18): keys that change only what a device shows — `sound`, `actions`,
// `osChannel`, `relevance`, `payload`, per-channel category titles, badge tabs, a batch's
// `interruption` (docs/seeds.md P14, P22, P24); a dedupe key made of the rendered content (P20);
// a sound switched by a preference (H0287, P13/P14); a batch group coalescing by thread (H0288, P11).
extension DiagnosticCode {
    public static let actionIDTwice = DiagnosticCode("H0280", "action-id-twice", "two quick actions of one `actions` list have the same `id`")
    public static let relevanceOutOfRange = DiagnosticCode("H0281", "relevance-out-of-range", "`relevance` is not a number from 0 to 1")
    public static let renderKeyWithoutDevice = DiagnosticCode("H0282", "render-key-without-device", "`sound`, `actions`, `osChannel`, `relevance` or `foreground` on a type that delivers on no `push` or `local` channel, where nothing shows them", severity: .warning)
    public static let tooManyActions = DiagnosticCode("H0283", "too-many-actions", "more than four quick actions, more than iOS shows", severity: .warning)

    public static let contentDedupeWithKey = DiagnosticCode("H0284", "content-dedupe-with-key", "`dedupe.by: content` together with a `dedupe.key` or an `idempotencyKey`: the content is the key")
    public static let contentDedupeWithoutCopy = DiagnosticCode("H0285", "content-dedupe-without-copy", "`dedupe.by: content` on a type with no `copy`, which has no content to compare")

    public static let lintContentReview = DiagnosticCode("H0286", "content-review", "copy uses a word of `content.review`, allowed only in some contexts: a person should read it", severity: .warning)

    public static let soundWhenNotPreference = DiagnosticCode("H0287", "sound-when-not-preference", "`sound.when` reads something other than `prefs.*`: a sound is switched by the user's own toggle")

    public static let batchByUnknown = DiagnosticCode("H0288", "batch-by-unknown", "a batch group's `by` is not `threadId`, the only grouping a batch knows")

    static let renderCodes: [DiagnosticCode] = [
        actionIDTwice, relevanceOutOfRange, renderKeyWithoutDevice, tooManyActions, contentDedupeWithKey, contentDedupeWithoutCopy,
        lintContentReview, soundWhenNotPreference, batchByUnknown,
    ]
}
