import HeraldSyntax

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

    /// One line per failing expectation and per problem of an invalid test, in test order,
    /// coverage when asked, then exactly `N passed, M failed` (invalid tests count as failed).
    public static func text(_ bundles: [BundleResults]) -> String {
        var out = ""
        for bundle in bundles {
            for result in bundle.results where !result.passed {
                for problem in result.problems {
                    out += "\((problem.span ?? result.span).start): FAIL \(result.name): \(oneLine(problem))\n"
                }
                for f in result.failures {
                    let step = result.failures.count > 0 && bundleStepCount(result) > 1 ? " [step \(f.step + 1)]" : ""
                    out += "\(f.span.start): FAIL \(result.name)\(step): \(message(f))\n"
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

    /// `action: expected schedule, got suppress (reason opened_recently, rule … at …)`.
    static func message(_ f: PolicyTestResult.Failure) -> String {
        "\(f.field): expected \(f.expected), got \(f.actual)" + (f.context.map { " (\($0))" } ?? "")
    }

    /// `error[H0602]: unknown request field `prefz` in `given` (did you mean `prefs`?)`.
    static func oneLine(_ problem: Diagnostic) -> String {
        let message = problem.message.split(whereSeparator: \.isNewline).joined(separator: " ")
        return "\(problem.severity.rawValue)[\(problem.code.id)]: \(message)"
            + (problem.suggestion.map { " (did you mean `\($0)`?)" } ?? "")
    }

    static func bundleStepCount(_ result: PolicyTestResult) -> Int {
        // A plan step makes several decisions, an events step none: count steps when known.
        result.steps > 0 ? result.steps : max(result.decisions.count + result.prompts.count, (result.failures.map(\.step).max() ?? 0) + 1)
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
                    for problem in result.problems {
                        let text = oneLine(problem)
                        let place = (problem.span ?? result.span).start.description
                        out += "      <failure message=\"\(xml(text))\" type=\"\(problem.code.id)\">\(xml(place)): \(xml(text))</failure>\n"
                    }
                    for f in result.failures {
                        let text = message(f)
                        out += "      <failure message=\"\(xml(text))\">\(xml(f.span.start.description)): \(xml(text))</failure>\n"
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
        func failure(_ f: PolicyTestResult.Failure) -> JSONOutput {
            var members: [(String, JSONOutput)] = [
                ("step", .int(f.step)), ("field", .string(f.field)), ("expected", .string(f.expected)),
                ("actual", .string(f.actual)), ("line", .int(f.span.start.line)), ("column", .int(f.span.start.column)),
            ]
            if let context = f.context { members.append(("context", .string(context))) }
            return .object(members)
        }
        func problem(_ d: Diagnostic, _ r: PolicyTestResult) -> JSONOutput {
            let place = (d.span ?? r.span).start
            var members: [(String, JSONOutput)] = [
                ("code", .string(d.code.id)), ("severity", .string(d.severity.rawValue)), ("message", .string(d.message)),
                ("file", .string(place.path)), ("line", .int(place.line)), ("column", .int(place.column)),
            ]
            if let suggestion = d.suggestion { members.append(("suggestion", .string(suggestion))) }
            return .object(members)
        }
        func test(_ r: PolicyTestResult) -> JSONOutput {
            var members: [(String, JSONOutput)] = [
                ("name", .string(r.name)), ("file", .string(r.span.start.path)), ("line", .int(r.span.start.line)),
                ("passed", .bool(r.passed)), ("failures", .array(r.failures.map(failure))),
            ]
            if !r.problems.isEmpty { members.append(("problems", .array(r.problems.map { problem($0, r) }))) }
            return .object(members)
        }
        func bundle(_ b: BundleResults) -> JSONOutput {
            var members: [(String, JSONOutput)] = [("directory", .string(b.directory)), ("tests", .array(b.results.map(test)))]
            if let c = b.coverage {
                members.append(("coverage", .object([
                    ("summary", .string(c.summary)),
                    ("unreached", .array(c.unreached.map { .object([("kind", .string($0.kind.rawValue)), ("id", .string($0.id))]) })),
                ])))
            }
            return .object(members)
        }
        let document = JSONOutput.object([
            ("bundles", .array(bundles.map(bundle))),
            ("passed", .int(passedCount(bundles))), ("failed", .int(failedCount(bundles))),
        ])
        return document.serialized() + "\n"
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
}
