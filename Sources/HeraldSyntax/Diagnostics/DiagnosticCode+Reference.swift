// H04xx: references between entries (H042x, templates, is in DiagnosticCode+Template.swift)
extension DiagnosticCode {
    public static let unknownCategory = DiagnosticCode("H0401", "unknown-category", "a type names a category the catalog does not declare")
    public static let unknownChannel = DiagnosticCode("H0402", "unknown-channel", "a channel name the catalog does not declare (in `channels`, `fallback`, a category's `channels`)")
    public static let unknownRoute = DiagnosticCode("H0403", "unknown-route", "a link names a route the catalog does not declare")
    public static let unknownRouteParam = DiagnosticCode("H0404", "unknown-route-param", "a link binds a param its route does not declare")
    public static let unboundRouteParam = DiagnosticCode("H0405", "unbound-route-param", "a link leaves one of its route's params unbound")
    public static let unknownType = DiagnosticCode("H0406", "unknown-type", "a notification type id that the catalog does not declare (batch members, cap `match`)")
    public static let unknownReason = DiagnosticCode("H0407", "unknown-reason", "a suppression rule's reason is neither built in nor declared in `reasons`")
    public static let unknownBatchGroup = DiagnosticCode("H0408", "unknown-batch-group", "`over: batch(<group>)` names no entry of `batching`")
    public static let unknownDigest = DiagnosticCode("H0409", "unknown-digest", "`over: digest(<name>)` names no entry of `digests`")
    public static let unknownTarget = DiagnosticCode("H0410", "unknown-target", "a name in `match`, `only`, `exempt`, `bypass` or `priorities` is no type, category (or, where allowed, channel)")
    public static let unknownParam = DiagnosticCode("H0411", "unknown-param", "`timing.at: param(<name>)` names no instant param of the type")
    public static let unknownStateField = DiagnosticCode("H0412", "unknown-state-field", "`timing.at: state(<path>)` names no instant field of the state schema")
    public static let invalidRouteArgument = DiagnosticCode("H0413", "invalid-route-argument", "a link binds an enum route param to a literal that is not one of its cases")

    static let referenceCodes: [DiagnosticCode] = [
        unknownCategory, unknownChannel, unknownRoute, unknownRouteParam, unboundRouteParam, unknownType,
        unknownReason, unknownBatchGroup, unknownDigest, unknownTarget, unknownParam, unknownStateField,
        invalidRouteArgument,
    ]
}
