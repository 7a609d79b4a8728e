// H0240–H0249 (issue 17 §6): delivery on several channels and the channels a category keeps
// (H0240–H0242); what the escape hatches `locked` and `critical` skip, `exemptions:` (H0243–H0244)
extension DiagnosticCode {
    public static let deliveryAllOneChannel = DiagnosticCode("H0240", "delivery-all-one-channel", "`delivery: all` on a type with a single channel, which has nothing to fan out over")
    public static let deliveryAllFallback = DiagnosticCode("H0241", "delivery-all-fallback", "`delivery: all` together with `fallback`: every channel already gets its own decision")
    public static let keepChannelNotUsed = DiagnosticCode("H0242", "keep-channel-not-used", "a category keeps a channel (`keepChannels`) that none of its types delivers on", severity: .warning)
    public static let exemptionsUnused = DiagnosticCode("H0243", "exemptions-unused", "`exemptions` says what `locked` or `critical` skips, but no type or category is locked, or no type is critical", severity: .warning)
    public static let exemptionListedTwice = DiagnosticCode("H0244", "exemption-listed-twice", "an exemption is listed twice in `exemptions.locked` or `exemptions.critical`")

    static let channelCodes: [DiagnosticCode] = [
        deliveryAllOneChannel, deliveryAllFallback, keepChannelNotUsed, exemptionsUnused, exemptionListedTwice,
    ]
}
