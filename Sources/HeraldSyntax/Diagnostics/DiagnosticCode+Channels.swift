// H0240–H0249: delivery on several channels and the channels a category keeps (issue 17 §6)
extension DiagnosticCode {
    public static let deliveryAllOneChannel = DiagnosticCode(
        "H0240", "delivery-all-one-channel", "`delivery: all` on a type with a single channel, which has nothing to fan out over")
    public static let deliveryAllFallback = DiagnosticCode(
        "H0241", "delivery-all-fallback", "`delivery: all` together with `fallback`: every channel already gets its own decision")
    public static let keepChannelNotUsed = DiagnosticCode(
        "H0242", "keep-channel-not-used", "a category keeps a channel (`keepChannels`) that none of its types delivers on")

    static let channelCodes: [DiagnosticCode] = [deliveryAllOneChannel, deliveryAllFallback, keepChannelNotUsed]
}
