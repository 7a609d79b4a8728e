import HeraldPolicy
import HeraldSyntax

extension DecisionRun {
    // MARK: 9. Batching

    mutating func checkBatching() -> Verdict? {
        guard table.batching != nil else {
            // A digest's member is held for it on every decision (`digests.<name>.members`).
            if let digest = table.digest {
                let slot = digestSlot(digest, at: deliverAt)
                batch = slot
                let zone = zone
                return Verdict(reason: .batched, citation: table.cite.batching,
                               detail: .lazy { "held for digest `\(digest.name)`, flushes at \(TraceFormat.localClock(slot.flushAt, zone))" })
            }
            step(.batching, .skip)
            return nil
        }
        // The group and its members are read where the table keeps them.
        let at = deliverAt
        let found = borrowing { table, _ in
            withBorrowed(table.batching!) { plan in
                findSlot(plan, at: at, forced: false, collecting: nil, members: table.batchMembers)
            }
        }
        if let found, found.opens {
            batch = found.batch
            let opened = found.batch, zone = zone
            step(.batching, .pass, table.cite.batching,
                 detail: .lazy { "opens `\(opened.key)` for its thread, delivered now; members until \(TraceFormat.localClock(opened.flushAt, zone)) join it" })
            return nil
        }
        if let slot = found?.batch {
            batch = slot
            let zone = zone
            return Verdict(reason: .batched, citation: table.cite.batching,
                           detail: .lazy { "joins `\(slot.key)`, flushes at \(TraceFormat.localClock(slot.flushAt, zone))" })
        }
        step(.batching, .pass, table.cite.batching, note: .batchingWindow)
        return nil
    }

    /// The batch a member at `t` belongs to: an open batch of the group in the history whose
    /// window holds `t`; else (not forced) a new batch with a member scheduled within the
    /// window; else (forced by a cap) a new batch starting at `t`. In a `by: threadId` group
    /// only the batches of the notification's thread count, and a member that finds none (not
    /// forced) is scheduled alone and opens its thread's batch (`opens`).
    ///
    /// A batch a cap forces (`collecting` is the cap's counting window) collects every member
    /// over that cap in the window: it joins a batch of the group that started in the same
    /// window and has not gone out (no entry of it `delivered`, `opened` or `dismissed`), and
    /// moves its flush to `window` after this member (`Engine.plan` flushes a batch once, at
    /// its latest member's flush).
    mutating func batchSlot(_ group: BatchPlan, at t: Int, forced: Bool, collecting: Range<Int>? = nil) -> Decision.Batch? {
        findSlot(group, at: t, forced: forced, collecting: collecting, members: table.batchMembers)?.batch
    }

    /// `batchSlot(_:at:forced:collecting:)` with the group's member types given; `opens` says
    /// the notification is scheduled alone and opens `batch` (a `by: threadId` group).
    func findSlot(_ group: BatchPlan, at t: Int, forced: Bool, collecting: Range<Int>? = nil,
                  members: borrowing [String]) -> (batch: Decision.Batch, opens: Bool)? {
        var best: Int?
        var collected: Int?
        // Empty until a batch key is looked at: most decisions of a member type find no batch.
        let prefix = ledger.hasBatches ? batchPrefix(group) : ""
        if !prefix.isEmpty {
            for key in ledger.batchKeys(withPrefix: prefix) {
                guard let start = ContractTime.parseInstant(String(key.dropFirst(prefix.count))) else { continue }
                // A thread's batch is opened by a member delivered at once; a member decided
                // before it (a plan decides by priority) joins it as well.
                let opens = group.byThread ? t - group.window < start : start <= t
                if opens, t < start + group.window {
                    best = Swift.min(best ?? Int.max, start)
                } else if let range = collecting, range.contains(start), start <= t, !ledger.batchWasSent(key) {
                    collected = Swift.min(collected ?? Int.max, start)
                }
            }
        }
        func slot(_ prefix: String, _ start: Int) -> Decision.Batch {
            Decision.Batch(group: group.name, key: prefix + ContractTime.format(start), flushAt: start + group.window)
        }
        if let start = best { return (slot(prefix, start), false) }
        if let start = collected {
            var joined = slot(prefix, start)
            joined.flushAt = t + group.window
            return (joined, false)
        }
        if !forced, group.byThread {
            // No batch of the thread is open: this member is delivered now and opens one.
            return (slot(batchPrefix(group), t), true)
        }
        if !forced {
            var first: Int?
            let window = group.window
            for index in members.indices {
                if let d = ledger.firstPending(type: members[index], after: t - window, before: t + window) {
                    first = Swift.min(first ?? Int.max, d)
                }
            }
            guard let other = first else { return nil }
            return (slot(batchPrefix(group), Swift.min(other, t)), false)
        }
        return (slot(batchPrefix(group), t), false)
    }

    /// The start of the group's batch keys for this user: `<group>:<user id>:`, and with
    /// `by: threadId` the notification's thread id and `:` after it.
    func batchPrefix(_ group: BatchPlan) -> String {
        group.byThread ? "\(group.name):\(context.userID):\(threadID()):" : "\(group.name):\(context.userID):"
    }

    /// The notification's thread id as rendered (docs/decisions.md, Thread ids): the type's
    /// or its category's `threadId`, else the category's name.
    func threadID() -> String {
        guard let template = table.threadIdTemplate else { return table.type.category }
        if let literal = template.template.literal { return literal }
        return template.render(context, localDate: deliverAt)
    }

    /// A digest's slot: the next occurrence at or after `t` of its time of day (`at`, or the
    /// user's reminder time for `at: reminder_time`), on its weekday when it is weekly, keyed
    /// by that local date, and flushed out of the user's quiet hours (docs/time.md § Digest
    /// schedules). Gaps resolve forward and a repeated hour is delivered once, as for
    /// `reminder_time`.
    func digestSlot(_ digest: Digest, at t: Int) -> Decision.Batch {
        let minute = (digest.atReminderTime ? context.prefs.reminderTime : digest.at) / 60
        var slot = zone.nextOccurrence(of: minute, atOrAfter: t)
        if let weekday = digest.weekday,
           let weekly = zone.nextOccurrence(of: minute, on: Weekdays(weekday: weekday), atOrAfter: t) {
            slot = weekly
        }
        let date = CivilDate(days: zone.localDate(of: slot))
        var flush = slot
        if let q = context.prefs.quietHours {
            let hours = QuietHours(start: q.start / 60, end: q.end / 60)
            if !hours.isEmpty { flush = zone.deferOutOfQuietHours(slot, hours) }
        }
        return Decision.Batch(group: digest.name, key: "\(digest.name):\(context.userID):\(date)", flushAt: flush)
    }
}
