import HeraldSyntax
import HeraldContract
import HeraldEngine

/// The notifications a test's steps left behind: scheduled ones (pending) and what happened to
/// them (`events:`), fed to later steps as their history.
struct FedLedger {
    struct Item {
        var entry: PendingEntry
        var status: HistoryEntry.Status
    }

    var items: [Item] = []

    /// Every item as a history entry, in the order it was left.
    var history: [JSON] {
        items.map { item in
            var members: [JSON.Member] = [
                JSON.Member("key", .string(item.entry.key)), JSON.Member("type", .string(item.entry.type)),
                JSON.Member("deliverAt", .string(RFC3339.format(item.entry.deliverAt, offsetSeconds: 0))),
                JSON.Member("status", .string(item.status.rawValue)),
            ]
            if let subject = item.entry.subject { members.append(JSON.Member("subject", .string(subject))) }
            if let channel = item.entry.channel { members.append(JSON.Member("channel", .string(channel))) }
            if let batch = item.entry.batchKey { members.append(JSON.Member("batch", .string(batch))) }
            return .object(members)
        }
    }

    /// What already happened: every item but the pending ones.
    var past: [JSON] { zip(items, history).filter { $0.0.status != .scheduled }.map(\.1) }
    /// The scheduled, not yet delivered items.
    var pending: [PendingEntry] { items.filter { $0.status == .scheduled }.map(\.entry) }

    mutating func schedule(_ entry: PendingEntry) {
        items.append(Item(entry: entry, status: .scheduled))
    }

    /// Replaces the pending items with `entries` (what a reconciliation leaves).
    mutating func replacePending(with entries: [PendingEntry]) {
        items.removeAll { $0.status == .scheduled }
        items += entries.map { Item(entry: $0, status: .scheduled) }
    }

    /// Applies a step's events: the latest item with the event's key takes its status (and, when
    /// delivered, its instant); an unknown key needs the event's `type`, else it is a failure.
    mutating func apply(_ events: [PolicyTestCase.Event], step: Int) -> [PolicyTestResult.Failure] {
        var failures: [PolicyTestResult.Failure] = []
        for event in events {
            if let i = items.lastIndex(where: { $0.entry.key == event.key }) {
                items[i].status = event.status
                if event.status == .delivered { items[i].entry.deliverAt = event.at }
            } else if let type = event.type {
                items.append(Item(entry: PendingEntry(key: event.key, type: type, deliverAt: event.at), status: event.status))
            } else {
                let known = items.map(\.entry.key)
                failures.append(.init(step: step, field: "events", expected: "a notification with key `\(event.key)`",
                                      actual: known.isEmpty ? "none was left by earlier steps (give the event a `type`)"
                                          : known.joined(separator: ", "), span: event.span))
            }
        }
        return failures
    }
}

extension PolicyTestRunner {
    /// One plan or reconcile step: its request is `given` overlaid with `when`, the candidates
    /// from `plan:`/`reconcile:`, and the history the earlier steps left (for a reconcile step,
    /// without the pending items, which become its `pending` unless the step writes its own).
    func runPlan(given: JSON, step: PolicyTestCase.Step, index: Int, ledger: inout FedLedger)
        -> (decisions: [Decision], failures: [PolicyTestResult.Failure])
    {
        func failure(_ expected: String, _ actual: String) -> [PolicyTestResult.Failure] {
            [PolicyTestResult.Failure(step: index, field: "request", expected: expected, actual: actual, span: step.span)]
        }
        let isReconcile = step.kind == .reconcile
        let listKey = isReconcile ? "reconcile" : "plan"
        var members = given.members ?? []
        for member in step.when.members ?? [] where member.key != listKey {
            if let i = members.firstIndex(where: { $0.key == member.key }) { members[i] = member } else { members.append(member) }
        }
        let trigger: Set<String> = ["type", "at", "params", "subject"]
        members.removeAll { trigger.contains($0.key) }
        let fed = isReconcile ? ledger.past : ledger.history
        if !fed.isEmpty {
            let base = members.first(where: { $0.key == "history" })?.value.elements ?? []
            members.removeAll { $0.key == "history" }
            members.append(JSON.Member("history", .array(base + fed)))
        }
        members.append(JSON.Member("candidates", step.when[listKey] ?? .array([])))
        if isReconcile && !members.contains(where: { $0.key == "pending" }) {
            members.append(JSON.Member("pending", .array(ledger.pending.map { $0.json() })))
        }
        let json = JSON.object(members)
        let planned: Plan
        var actual: [JSON.Member] = []
        if isReconcile {
            guard let reconcile else { return ([], failure("a reconciliation", "this runner reconciles no plans")) }
            let request: ReconcileRequest
            do { request = try ReconcileRequest.parse(json: json) } catch {
                return ([], failure("a valid reconcile request", error.description.replacingNewlines))
            }
            switch reconcile(request) {
            case .failure(let errors): return ([], failure("a reconciliation", errors.description.replacingNewlines))
            case .success(let result):
                planned = result.plan
                let r = result.reconciliation
                actual = [
                    JSON.Member("add", .array(r.add.map { .string($0.key ?? "") })),
                    JSON.Member("keep", .array(r.keep.map { .string($0.key) })),
                    JSON.Member("update", .array(r.update.map { .string($0.pending.key) })),
                    JSON.Member("cancel", .array(r.cancel.map { .string($0.key) })),
                ]
                ledger.replacePending(with: r.applied)
            }
        } else {
            guard let plan else { return ([], failure("a plan", "this runner plans nothing")) }
            let request: PlanRequest
            do { request = try PlanRequest.parse(json: json) } catch {
                return ([], failure("a valid plan request", error.description.replacingNewlines))
            }
            switch plan(request) {
            case .failure(let errors): return ([], failure("a plan", errors.description.replacingNewlines))
            case .success(let result):
                planned = result
                for decision in result.decisions { if let entry = decision.pendingEntry() { ledger.schedule(entry) } }
            }
        }
        actual += [
            JSON.Member("decisions", .array(planned.decisions.map { $0.json() })),
            JSON.Member("deliveries", .array(planned.deliveries.map { $0.json() })),
            JSON.Member("batches", .array(planned.batches.map { batch in
                Self.flushedJSON(batch, members: planned.decisions.filter { $0.batch?.key == batch.key }.count)
            })),
        ]
        let result = JSON.object(actual)
        let failures = step.expectations.compactMap { expectation in
            Self.check(expectation, against: result).map {
                PolicyTestResult.Failure(step: index, field: expectation.key, expected: $0.expected, actual: $0.actual, span: expectation.span)
            }
        }
        return (planned.decisions + planned.batches, failures)
    }
}
