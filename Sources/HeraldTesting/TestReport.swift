public import HeraldSyntax

/// Renders test results for people (`text`), CI (`junit`) and tools (`json`). Returns strings:
/// library code never prints.
public enum TestReport {
    public enum Format: String, Sendable, CaseIterable { case text, junit, json }

    public struct BundleResults: Sendable {
        public var directory: String
        public var results: [PolicyTestResult]
        public var coverage: Coverage?
        public init(directory: String, results: [PolicyTestResult], coverage: Coverage?) {
            self.directory = directory
            self.results = results
            self.coverage = coverage
        }
    }

    public static func passedCount(_ bundles: [BundleResults]) -> Int { bundles.reduce(0) { $0 + $1.results.filter(\.passed).count } }
    public static func failedCount(_ bundles: [BundleResults]) -> Int { bundles.reduce(0) { $0 + $1.results.filter { !$0.passed }.count } }

    /// One line per failing expectation, coverage when asked, then exactly `N passed, M failed`.
    public static func text(_ bundles: [BundleResults]) -> String {
        var out = ""
        for bundle in bundles {
            for result in bundle.results where !result.passed {
                for f in result.failures {
                    let step = result.failures.count > 0 && bundleStepCount(result) > 1 ? " [step \(f.step + 1)]" : ""
                    out += "\(f.span.start): FAIL \(result.name)\(step): \(f.field): expected \(f.expected), got \(f.actual)\n"
                }
            }
            if let coverage = bundle.coverage {
                out += "coverage \(bundle.directory): \(coverage.summary)\n"
                for item in coverage.unreached {
                    out += "  not reached: \(item.kind.rawValue) `\(item.id)`\n"
                }
            }
        }
        out += "\(passedCount(bundles)) passed, \(failedCount(bundles)) failed\n"
        return out
    }

    static func bundleStepCount(_ result: PolicyTestResult) -> Int {
        max(result.decisions.count + result.prompts.count, (result.failures.map(\.step).max() ?? 0) + 1)
    }

    public static func junit(_ bundles: [BundleResults]) -> String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites tests=\"\(passedCount(bundles) + failedCount(bundles))\" failures=\"\(failedCount(bundles))\">\n"
        for bundle in bundles {
            let failures = bundle.results.filter { !$0.passed }.count
            out += "  <testsuite name=\"\(xml(bundle.directory))\" tests=\"\(bundle.results.count)\" failures=\"\(failures)\">\n"
            for result in bundle.results {
                out += "    <testcase classname=\"\(xml(bundle.directory))\" name=\"\(xml(result.name))\" file=\"\(xml(result.span.start.path))\" line=\"\(result.span.start.line)\""
                if result.passed {
                    out += "/>\n"
                } else {
                    out += ">\n"
                    for f in result.failures {
                        let message = "\(f.field): expected \(f.expected), got \(f.actual)"
                        out += "      <failure message=\"\(xml(message))\">\(xml(f.span.start.description)): \(xml(message))</failure>\n"
                    }
                    out += "    </testcase>\n"
                }
            }
            out += "  </testsuite>\n"
        }
        out += "</testsuites>\n"
        return out
    }

    public static func json(_ bundles: [BundleResults]) -> String {
        var out = "{\"bundles\":["
        out += bundles.map { bundle in
            var b = "{\"directory\":\(str(bundle.directory)),\"tests\":["
            b += bundle.results.map { r in
                "{\"name\":\(str(r.name)),\"file\":\(str(r.span.start.path)),\"line\":\(r.span.start.line),\"passed\":\(r.passed),\"failures\":["
                    + r.failures.map { f in
                        "{\"step\":\(f.step),\"field\":\(str(f.field)),\"expected\":\(str(f.expected)),\"actual\":\(str(f.actual)),\"line\":\(f.span.start.line),\"column\":\(f.span.start.column)}"
                    }.joined(separator: ",") + "]}"
            }.joined(separator: ",")
            b += "]"
            if let c = bundle.coverage {
                b += ",\"coverage\":{\"summary\":\(str(c.summary)),\"unreached\":["
                b += c.unreached.map { "{\"kind\":\(str($0.kind.rawValue)),\"id\":\(str($0.id))}" }.joined(separator: ",")
                b += "]}"
            }
            return b + "}"
        }.joined(separator: ",")
        out += "],\"passed\":\(passedCount(bundles)),\"failed\":\(failedCount(bundles))}\n"
        return out
    }

    static func xml(_ s: String) -> String {
        var out = ""
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default:
                if c.value < 0x20 && c != "\n" && c != "\t" { out += " " } else { out.unicodeScalars.append(c) }
            }
        }
        return out
    }

    static func str(_ s: String) -> String {
        var out = "\""
        for c in s.unicodeScalars {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if c.value < 0x20 {
                    let hex = String(c.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(c)
                }
            }
        }
        return out + "\""
    }
}
