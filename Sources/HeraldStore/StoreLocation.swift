/// Where a store lives, parsed from the one URL syntax the CLI and the server accept:
/// `sqlite:PATH` (or `sqlite://PATH`), `memory:`, `postgres://…`/`postgresql://…`.
///
/// Parsing is the one place a new kind of store is named; opening it belongs to whoever links
/// that store's target (the CLI, the server), so HeraldStore depends on no driver.
public enum StoreLocation: Sendable, Hashable {
    case sqlite(path: String)
    case memory
    /// The URL as given.
    case postgres(url: String)

    /// Parses a store URL.
    /// - Throws: `StoreError` (`badURL`) naming the accepted forms.
    public init(parsing text: String) throws {
        if text == "memory:" {
            self = .memory
        } else if text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") {
            self = .postgres(url: text)
        } else if text.hasPrefix("sqlite:") {
            var path = String(text.dropFirst("sqlite:".count))
            if path.hasPrefix("//") { path.removeFirst(2) }
            guard !path.isEmpty else {
                throw StoreError(.badURL, "`\(text)` names no file: write `sqlite:PATH`, such as `sqlite:herald.db`")
            }
            self = .sqlite(path: path)
        } else {
            throw StoreError(.badURL, "`\(text)` is not a store URL: use `sqlite:PATH`, `postgres://…` or `memory:`")
        }
    }
}
