import Foundation
import HeraldContract
import HeraldEngine
import HeraldSimulate
import Testing

@Suite struct WeekPictureTests {
    struct DrawnMark: Hashable, Comparable {
        var user: String
        var day: Int
        var minute: Int
        var kind: String
        var type: String
        static func < (a: Self, b: Self) -> Bool {
            (a.user, a.day, a.minute, a.kind, a.type) < (b.user, b.day, b.minute, b.kind, b.type)
        }
    }

    static func attribute(_ name: String, in tag: Substring) -> String? {
        guard let start = tag.range(of: " \(name)=\"") else { return nil }
        let rest = tag[start.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }

    /// The SVG marks of the HTML are exactly the sample marks of the JSON: same users, days,
    /// local minutes, kinds and types; the histogram bars are the JSON's histogram.
    @Test func svgMarksMatchTheJSON() throws {
        let engine = try #require(SimulateSupport.handz)
        let scenario = try #require(SimulateSupport.scenario("policies/handz/scenarios/typical-week.yaml", engine: engine))
        let result = Simulator(engine: engine, scenario: scenario).run(.init(users: 60, sampleUsers: 6))
        let html = WeekPicture.html(result)
        let json = try #require(try? JSON.parse(result.json().serialized()))

        var fromJSON: [DrawnMark] = []
        for sample in json["samples"]?.elements ?? [] {
            let user = sample["user"]?.stringValue ?? ""
            for mark in sample["marks"]?.elements ?? [] {
                let local = (mark["local"]?.stringValue ?? "").split(separator: ":").compactMap { Int($0) }
                fromJSON.append(DrawnMark(user: user, day: mark["day"]?.intValue ?? 0, minute: local[0] * 60 + local[1],
                                          kind: mark["kind"]?.stringValue ?? "", type: mark["type"]?.stringValue ?? ""))
            }
        }
        var fromSVG: [DrawnMark] = []
        for piece in html.split(separator: "<g class=\"mark\"").dropFirst() {
            let tag = piece.prefix { $0 != ">" }
            fromSVG.append(DrawnMark(user: Self.attribute("data-user", in: tag) ?? "", day: Int(Self.attribute("data-day", in: tag) ?? "") ?? -1,
                                     minute: Int(Self.attribute("data-minute", in: tag) ?? "") ?? -1,
                                     kind: Self.attribute("data-kind", in: tag) ?? "", type: Self.attribute("data-type", in: tag) ?? ""))
            #expect(piece.contains("<title>"), "every mark has a hover title")
        }
        #expect(fromJSON.count > 50, "the sample users' weeks have marks (\(fromJSON.count))")
        #expect(fromSVG.sorted() == fromJSON.sorted())
        #expect(Set(fromJSON.map(\.kind)).isSuperset(of: ["delivered", "suppressed", "batched", "batch"]))

        let bars = html.split(separator: "<rect class=\"bar\"").dropFirst().map { Int(Self.attribute("data-count", in: $0.prefix { $0 != ">" }) ?? "") ?? -1 }
        let histogram = json["deliveriesPerUserPerDay"]?["histogram"]?.elements?.compactMap(\.intValue) ?? []
        #expect(bars == histogram)
        #expect(histogram.reduce(0, +) == 60 * 7)

        // Self-contained: no script, no external reference.
        #expect(!html.contains("<script"))
        #expect(!html.contains("http://") || html.components(separatedBy: "http://").count - 1 == html.components(separatedBy: "http://www.w3.org/2000/svg").count - 1)
        #expect(!html.contains("https://"))
    }
}
