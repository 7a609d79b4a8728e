import HeraldContract
import HeraldEngine

/// The self-contained HTML report of a simulation: summary tables, a histogram of deliveries
/// per user per day, and for each sample user a week drawn as rows of days with the local hours
/// across (inline SVG, inline CSS, no script and no network).
///
/// Every mark is a `<g class="mark">` with `data-user`, `data-day` (1-based), `data-minute`
/// (local), `data-kind` and `data-type`, and a `<title>` with the type and reason that a browser
/// shows on hover: delivered notifications are filled dots, batch and digest summaries filled
/// squares, notifications held for a batch hollow dots, suppressed ones crosses.
public enum WeekPicture {
    static let palette = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f"]

    static let style = """
        body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;margin:24px;color:#222;background:#fff}
        h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px}h3{font-size:14px;margin:18px 0 4px}
        .meta{color:#555;font-size:13px}
        table{border-collapse:collapse;font-size:13px;margin:4px 0 12px}
        td,th{border:1px solid #ddd;padding:3px 8px;text-align:left}td.n{text-align:right;font-variant-numeric:tabular-nums}
        th{background:#f4f4f4}.grid{display:flex;flex-wrap:wrap;gap:24px}
        .legend span{display:inline-block;margin-right:14px;font-size:12px}
        .sw{display:inline-block;width:11px;height:11px;border-radius:6px;margin-right:4px;vertical-align:-1px}
        .up{color:#b00}.down{color:#060}
        svg text{font-family:inherit}
        """

    /// The report of one simulation.
    public static func html(_ result: SimulationResult) -> String {
        var out = head(title: "Herald simulation: \(result.policyName), \(result.scenario)")
        out += "<h1>\(escape(result.policyName)) · \(escape(result.scenario))</h1>\n"
        out += "<p class=\"meta\">\(result.users) users × \(result.days) days from \(CivilDate(days: result.start).description), seed \(result.seed); policy digest \(escape(String(result.policyDigest.prefix(12)))); scenario \(escape(result.scenarioPath))</p>\n"
        out += summary(result)
        out += "<h2>Deliveries per user per day</h2>\n" + histogram(result.histogram) + "\n"
        out += "<h2>Sample users' weeks</h2>\n" + legend(result.categories)
        for sample in result.samples { out += week(sample, result: result) }
        out += tables(result)
        return out + "</body>\n</html>\n"
    }

    static func head(title: String) -> String {
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>\(escape(title))</title>\n<style>\n\(style)\n</style>\n</head>\n<body>\n"
    }

    static func summary(_ r: SimulationResult) -> String {
        var rows: [(String, String)] = [
            ("decisions", "\(r.decisions)"),
            ("deliveries", "\(r.deliveries)"),
            ("deliveries per user per day", "mean \(SimulationResult.hundredths(r.meanPerUserDayHundredths)) · p50 \(r.percentile(50)) · p95 \(r.percentile(95)) · max \(r.maxPerUserDay)"),
            ("suppressed", "\(r.actions["suppress"] ?? 0)"),
            ("held for batches/digests", "\(r.batchedMembers) in \(r.batches) batches and \(r.digests) digests"),
            ("deferred out of quiet hours", "\(r.quietHoursDeferrals)"),
            ("opened / dismissed", "\(r.opened) / \(r.dismissed)"),
        ]
        if r.pendingAtEnd > 0 { rows.append(("still pending at the end", "\(r.pendingAtEnd)")) }
        if !r.errors.isEmpty { rows.append(("request errors", r.errors.keys.sorted().map { "\($0): \(r.errors[$0]!)" }.joined(separator: ", "))) }
        return "<h2>Summary</h2>\n<table>\n" + rows.map { "<tr><th>\(escape($0.0))</th><td>\(escape($0.1))</td></tr>" }.joined(separator: "\n") + "\n</table>\n"
    }

    static func tables(_ r: SimulationResult) -> String {
        var out = "<div class=\"grid\">\n"
        out += countTable("Suppressions by reason", ["reason", "count"], r.suppressions)
        out += countTable("Scheduled, by reason", ["reason", "count"], r.scheduleReasons)
        out += countTable("Deliveries by category", ["category", "count"], r.byCategory)
        out += "</div>\n<div class=\"grid\">\n"
        out += countTable("Caps that acted", ["cap → outcome", "count"], r.caps)
        out += countTable("Rules that decided", ["outcome · rule", "count"], r.rules)
        out += countTable("Decisions by type", ["type", "count"], r.byType)
        return out + "</div>\n"
    }

    static func countTable(_ title: String, _ header: [String], _ map: [String: Int]) -> String {
        let keys = map.keys.sorted { (map[$0]!, $1) > (map[$1]!, $0) }
        var out = "<div><h3>\(escape(title))</h3>\n<table>\n<tr><th>\(escape(header[0]))</th><th>\(escape(header[1]))</th></tr>\n"
        if keys.isEmpty { out += "<tr><td colspan=\"2\">none</td></tr>\n" }
        for key in keys { out += "<tr><td>\(escape(key))</td><td class=\"n\">\(map[key]!)</td></tr>\n" }
        return out + "</table></div>\n"
    }

    static func legend(_ categories: [String]) -> String {
        var out = "<p class=\"legend\">"
        for (i, category) in categories.enumerated() {
            out += "<span><i class=\"sw\" style=\"background:\(palette[i % palette.count])\"></i>\(escape(category))</span>"
        }
        out += "</p>\n<p class=\"legend\"><span>● delivered</span><span>■ batch or digest summary</span><span>○ held for a batch (at its trigger)</span><span>✕ suppressed (at its trigger)</span><span><i class=\"sw\" style=\"background:#e8e8f4;border-radius:0\"></i>quiet hours</span><span>hover a mark for its type and reason</span></p>\n"
        return out
    }

    /// A bar chart of how many user-days had n deliveries.
    public static func histogram(_ counts: [Int], title: String = "user-days") -> String {
        let barWidth = 34, height = 160, left = 50, bottom = 30
        let width = left + max(counts.count, 1) * barWidth + 20
        let top = max(counts.max() ?? 1, 1)
        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"histogram\" width=\"\(width)\" height=\"\(height + bottom + 10)\" viewBox=\"0 0 \(width) \(height + bottom + 10)\">\n"
        out += "<line x1=\"\(left)\" y1=\"\(height)\" x2=\"\(width - 10)\" y2=\"\(height)\" stroke=\"#888\"/>\n"
        out += "<text x=\"4\" y=\"14\" font-size=\"11\" fill=\"#555\">\(top)</text><text x=\"4\" y=\"\(height)\" font-size=\"11\" fill=\"#555\">0</text>\n"
        for (n, count) in counts.enumerated() {
            let h = count == 0 ? 0 : max(1, count * (height - 10) / top)
            let x = left + n * barWidth + 4
            out += "<rect class=\"bar\" data-n=\"\(n)\" data-count=\"\(count)\" x=\"\(x)\" y=\"\(height - h)\" width=\"\(barWidth - 8)\" height=\"\(h)\" fill=\"#4a78b5\"><title>\(count) \(title) with \(n) \(n == 1 ? "delivery" : "deliveries")</title></rect>\n"
            out += "<text x=\"\(x + (barWidth - 8) / 2)\" y=\"\(height + 16)\" font-size=\"11\" text-anchor=\"middle\">\(n)</text>\n"
        }
        out += "<text x=\"\(left)\" y=\"\(height + 32)\" font-size=\"11\" fill=\"#555\">deliveries per user per day</text>\n"
        return out + "</svg>"
    }

    /// One sample user's week.
    static func week(_ sample: SimulationResult.Sample, result: SimulationResult) -> String {
        let left = 96, hourWidth = 30, rowHeight = 26, top = 22
        let width = left + 24 * hourWidth + 24
        let height = top + result.days * rowHeight + 8
        let colours = Dictionary(uniqueKeysWithValues: result.categories.enumerated().map { ($1, palette[$0 % palette.count]) })
        var out = "<h3>\(escape(sample.user)) · \(escape(sample.zone)) · deliveries \(sample.perDay.map(String.init).joined(separator: " "))</h3>\n"
        out += "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"week\" data-user=\"\(escape(sample.user))\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\">\n"
        func x(_ minute: Int) -> Int { left + minute * hourWidth / 60 }
        for day in 0..<result.days {
            let y = top + day * rowHeight
            if let quiet = sample.quietHours, quiet[0] != quiet[1] {
                let spans = quiet[0] < quiet[1] ? [(quiet[0], quiet[1])] : [(quiet[0], 1440), (0, quiet[1])]
                for (a, b) in spans {
                    out += "<rect class=\"quiet\" x=\"\(x(a))\" y=\"\(y)\" width=\"\(x(b) - x(a))\" height=\"\(rowHeight - 2)\" fill=\"#e8e8f4\"><title>quiet hours \(hhmm(quiet[0]))–\(hhmm(quiet[1]))</title></rect>\n"
                }
            }
            let date = CivilDate(days: result.start + day)
            let weekday = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"][(date.weekday - 1) % 7]
            out += "<text x=\"4\" y=\"\(y + rowHeight / 2 + 4)\" font-size=\"12\">\(weekday) \(date.description.suffix(5))</text>\n"
            out += "<line x1=\"\(left)\" y1=\"\(y + rowHeight - 1)\" x2=\"\(x(1440))\" y2=\"\(y + rowHeight - 1)\" stroke=\"#ddd\"/>\n"
        }
        for hour in stride(from: 0, through: 24, by: 3) {
            out += "<line x1=\"\(x(hour * 60))\" y1=\"\(top - 4)\" x2=\"\(x(hour * 60))\" y2=\"\(height - 8)\" stroke=\"#ccc\" stroke-dasharray=\"2,3\"/>\n"
            out += "<text x=\"\(x(hour * 60))\" y=\"\(top - 8)\" font-size=\"11\" text-anchor=\"middle\" fill=\"#555\">\(hhmm(hour * 60 % 1440))</text>\n"
        }
        for mark in sample.marks {
            let cx = x(mark.minute), cy = top + mark.day * rowHeight + (rowHeight - 2) / 2
            let colour = colours[mark.category] ?? "#444"
            var title = "\(mark.type) (\(mark.category)) \(mark.kind.rawValue) at \(hhmm(mark.minute)) local: \(mark.note)"
            if let reaction = mark.reaction { title += "; \(reaction)" }
            out += "<g class=\"mark\" data-user=\"\(escape(sample.user))\" data-day=\"\(mark.day + 1)\" data-minute=\"\(mark.minute)\" data-kind=\"\(mark.kind.rawValue)\" data-type=\"\(escape(mark.type))\"><title>\(escape(title))</title>"
            switch mark.kind {
            case .delivered:
                out += "<circle cx=\"\(cx)\" cy=\"\(cy)\" r=\"6\" fill=\"\(colour)\" stroke=\"#fff\" stroke-width=\"1\"/>"
            case .batch, .digest:
                out += "<rect x=\"\(cx - 6)\" y=\"\(cy - 6)\" width=\"12\" height=\"12\" fill=\"\(colour)\" stroke=\"#222\" stroke-width=\"1.5\"/>"
            case .batched:
                out += "<circle cx=\"\(cx)\" cy=\"\(cy)\" r=\"5\" fill=\"#fff\" stroke=\"\(colour)\" stroke-width=\"2\"/>"
            case .suppressed:
                out += "<path d=\"M\(cx - 4) \(cy - 4)L\(cx + 4) \(cy + 4)M\(cx - 4) \(cy + 4)L\(cx + 4) \(cy - 4)\" stroke=\"\(colour)\" stroke-width=\"2\" opacity=\"0.8\"/>"
            }
            out += "</g>\n"
        }
        return out + "</svg>\n"
    }

    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }
}
