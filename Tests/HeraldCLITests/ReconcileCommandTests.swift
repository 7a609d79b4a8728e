import Foundation
import HeraldContract
import HeraldEngine
import Testing
@testable import herald

/// `herald reconcile`: a plan request plus `pending` → add / keep / update / cancel.
@Suite struct ReconcileCommandTests {
    @Test func parsesArguments() throws {
        let command = try ReconcileCommand.parse([TestSupport.path("policies/crescender"), "--request", "-", "--compact"])
        #expect(command.options.request == "-" && command.options.compact)
    }

    @Test func restoreExampleAddsUpdatesAndCancels() throws {
        let result = try TestSupport.runHerald(["reconcile", TestSupport.path("policies/crescender"),
                                                "--request", TestSupport.path("docs/examples/reconcile-restore.json"), "--compact"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try JSON.parse(result.stdout)
        func keys(_ field: String) -> [String] {
            (json[field]?.elements ?? []).compactMap { $0["key"]?.stringValue ?? $0["from"]?["key"]?.stringValue }
        }
        #expect(keys("add") == ["lessons|li-8|2026-03-11T06:00:00Z"])
        #expect(keys("update") == ["lessons|li-7|2026-03-10T05:00:00Z"])
        #expect(json["update"]?.elements?.first?["changed"] == .array([.string("deliverAt")]))
        #expect(keys("cancel") == ["lessons|li-3|2026-03-10T07:00:00Z"])
        #expect(keys("keep").isEmpty)
    }

    @Test func scheduledHistoryAndMissingPendingExitOne() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("reconcile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("r.json")
        try #"{ "now": "2026-03-10T09:30:00Z", "user": { "id": "p1" }, "candidates": [], "history": [ { "key": "k", "type": "lesson.reminder", "deliverAt": "2026-03-10T09:30:00Z", "status": "scheduled" } ] }"#
            .write(to: file, atomically: true, encoding: .utf8)
        let result = try TestSupport.runHerald(["reconcile", TestSupport.path("policies/crescender"), "--request", file.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("pending: missing required field"))
        #expect(result.stderr.contains("history[0].status"))
    }
}
