public import HeraldSyntax

/// One entry of the catalog's `badge.tabs` (docs/seeds.md P24): an app tab's badge, an int
/// expression over state, user and prefs. The app icon's badge is `badge.total`, else the sum
/// of the tabs.
public struct BadgeTab: Sendable {
    public var name: String
    public var count: CompiledExpression
    public var span: SourceSpan

    public init(name: String, count: CompiledExpression, span: SourceSpan) {
        self.name = name
        self.count = count
        self.span = span
    }
}
