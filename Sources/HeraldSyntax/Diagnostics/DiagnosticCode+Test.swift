// H06xx: policy test files (`policies/<app>/tests/*.yaml`)
extension DiagnosticCode {
    public static let testFileStructure = DiagnosticCode("H0601", "test-file-structure", "a policy test file is not shaped as documented (`tests:` list of `name`/`given`/`when`/`then`)")
    public static let testUnknownKey = DiagnosticCode("H0602", "test-unknown-key", "a test uses a key that is not part of the test format")
    public static let testDuplicateName = DiagnosticCode("H0603", "test-duplicate-name", "two tests of a bundle have the same name")
    public static let testStepMismatch = DiagnosticCode("H0605", "test-step-mismatch", "a test's `when` and `then` lists have different lengths")
    public static let testNoTests = DiagnosticCode("H0606", "test-no-tests", "a policy directory has no tests", severity: .warning)
    public static let testInvalidInstant = DiagnosticCode("H0607", "test-invalid-instant", "an instant in a test (`at`, `now`, `deliverAt`, `localDeliverAt`, `batch.flushAt`) is not an RFC 3339 date-time with a UTC offset")

    static let testCodes: [DiagnosticCode] = [
        .testFileStructure, .testUnknownKey, .testDuplicateName, .testStepMismatch, .testNoTests, .testInvalidInstant,
    ]
}
