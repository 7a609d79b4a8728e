extension DecisionRun {
    /// Runs `body` with the table and the context as borrowed references: the run holds the
    /// context and the context the table for the whole decision, so reading what they own
    /// (compiled conditions, cap plans, batch groups) counts no reference.
    ///
    /// Invariant: the references are lent for the closure only, while `self` (which holds
    /// both strongly) is borrowed for the call.
    @inline(__always)
    func borrowing<R>(_ body: (TypeTable, RequestContext) -> R) -> R {
        Unmanaged.passUnretained(table)._withUnsafeGuaranteedRef { table in
            Unmanaged.passUnretained(context)._withUnsafeGuaranteedRef { context in body(table, context) }
        }
    }
}
