// H06xx: policy test files (`policies/<app>/tests/*.yaml`)
extension DiagnosticCode {
    public static let testFileStructure = DiagnosticCode("H0601", "test-file-structure", "a policy test file is not shaped as documented (`tests:` list of `name`/`given`/`when`/`then`)")
    public static let testUnknownKey = DiagnosticCode("H0602", "test-unknown-key", "a test uses a key that is not part of the test format")
    public static let testDuplicateName = DiagnosticCode("H0603", "test-duplicate-name", "two tests of a bundle have the same name")
    public static let testStepMismatch = DiagnosticCode("H0605", "test-step-mismatch", "a test's `when` and `then` lists have different lengths")
    public static let testNoTests = DiagnosticCode("H0606", "test-no-tests", "a policy directory has no tests", severity: .warning)
    public static let testInvalidInstant = DiagnosticCode("H0607", "test-invalid-instant", "an instant in a test (`at`, `now`, `deliverAt`, `localDeliverAt`, `batch.flushAt`) is not an RFC 3339 date-time with a UTC offset")
    public static let testStepKind = DiagnosticCode("H0608", "test-step-kind", "a test step mixes step kinds (trigger, prompt, plan, reconcile, events) or uses a field its kind does not take")
    public static let testCandidates = DiagnosticCode("H0609", "test-candidates", "a plan or reconcile step's candidates are not a list of `type`/`at`/`params`/`subject` mappings")
    public static let testPending = DiagnosticCode("H0610", "test-pending", "a reconcile step's `pending` is not a list of pending entries")
    public static let testEvent = DiagnosticCode("H0611", "test-event", "an entry of a step's `events` is not `{ key, status, at, type? }` with a known status")
    public static let testResultField = DiagnosticCode("H0612", "test-result-field", "a `then` field that the step's kind does not produce (`add` on a trigger, `action` on a plan)")
    public static let testResultList = DiagnosticCode("H0613", "test-result-list", "`decisions`, `deliveries`, `batches`, `add`, `keep`, `update` or `cancel` in `then` is not a list of the right entries")
    public static let testNegation = DiagnosticCode("H0614", "test-negation", "`not` in `then` is not a non-empty mapping of decision fields, or is nested")
    public static let testLocalTimeRange = DiagnosticCode("H0615", "test-local-time-range", "a `localTime` range is not `{ from: \"HH:MM\", to: \"HH:MM\" }`")
    public static let testSameBatch = DiagnosticCode("H0616", "test-same-batch", "`batch: { sameAs: n }` does not name an earlier trigger step")
    public static let testBatchMembers = DiagnosticCode("H0617", "test-batch-members", "`members` in `then` is outside an entry of `batches`, or not a count of 1 or more")
    public static let testResultMatch = DiagnosticCode("H0618", "test-result-match", "some entries of a `decisions`, `deliveries` or `batches` list name a `key` (or `channel`) and others do not")

    static let testCodes: [DiagnosticCode] = [
        .testFileStructure, .testUnknownKey, .testDuplicateName, .testStepMismatch, .testNoTests, .testInvalidInstant,
        .testStepKind, .testCandidates, .testPending, .testEvent, .testResultField, .testResultList, .testNegation,
        .testLocalTimeRange, .testSameBatch, .testBatchMembers, .testResultMatch,
    ]
}
