// H00xx: files and bundles (reading directories, merging files, finding the catalog).
extension DiagnosticCode {
    public static let pathNotFound = DiagnosticCode("H0001", "path-not-found", "a named file or directory does not exist")
    public static let unreadableFile = DiagnosticCode("H0002", "unreadable-file", "a file exists but cannot be read")
    public static let emptyBundle = DiagnosticCode("H0003", "empty-bundle", "a bundle directory holds no `.yaml` files")
    public static let catalogNotFound = DiagnosticCode("H0004", "catalog-not-found", "the policy's `catalog:` path names no catalog directory")
    public static let duplicateDefinition = DiagnosticCode("H0005", "duplicate-definition", "the same entry is defined in two files of a bundle")
    public static let missingCatalog = DiagnosticCode("H0006", "missing-catalog", "a policy bundle names no catalog and defines no types")

    static let bundleCodes: [DiagnosticCode] = [
        pathNotFound, unreadableFile, emptyBundle, catalogNotFound, duplicateDefinition, missingCatalog,
    ]
}
