// H01xx: the strict YAML reader
extension DiagnosticCode {
    public static let yamlSyntax = DiagnosticCode("H0101", "yaml-syntax", "the file is not well-formed YAML (libyaml's scanner or parser rejected it)")
    public static let yamlDuplicateKey = DiagnosticCode("H0102", "yaml-duplicate-key", "a mapping holds the same key twice")
    public static let yamlNonStrictBoolean = DiagnosticCode("H0103", "yaml-non-strict-boolean", "a YAML 1.1 boolean spelling (`yes`, `no`, `on`, `off`, `y`, `n`, `True`) is used unquoted")
    public static let yamlAnchorOrAlias = DiagnosticCode("H0104", "yaml-anchor-or-alias", "anchors (`&a`) and aliases (`*a`) are not supported")
    public static let yamlMergeKey = DiagnosticCode("H0105", "yaml-merge-key", "merge keys (`<<`) are not supported")
    public static let yamlTag = DiagnosticCode("H0106", "yaml-tag", "explicit tags (`!!str`, `!x`) are not supported")
    public static let yamlMultipleDocuments = DiagnosticCode("H0107", "yaml-multiple-documents", "a file holds more than one YAML document")
    public static let yamlNonStringKey = DiagnosticCode("H0108", "yaml-non-string-key", "a mapping key is not a plain string (a number, a boolean, null, a list or a mapping)")
    public static let yamlInvalidUTF8 = DiagnosticCode("H0109", "yaml-invalid-utf8", "the file is not valid UTF-8")
    public static let yamlFileTooLarge = DiagnosticCode("H0110", "yaml-file-too-large", "the file is larger than the reader's size limit (4 MiB)")
    public static let yamlTooDeep = DiagnosticCode("H0111", "yaml-too-deep", "mappings and lists are nested deeper than the limit (64)")
    public static let yamlTooManyNodes = DiagnosticCode("H0112", "yaml-too-many-nodes", "the file holds more nodes than the limit (100,000)")
    public static let yamlTabIndentation = DiagnosticCode("H0113", "yaml-tab-indentation", "a tab character is used where YAML allows only spaces")
    public static let yamlEmptyFile = DiagnosticCode("H0114", "yaml-empty-file", "a file holds no YAML document", severity: .warning)
    public static let yamlTooManyProblems = DiagnosticCode("H0115", "yaml-too-many-problems", "the reader stopped after reporting many problems in one file", severity: .note)

    static let yamlCodes: [DiagnosticCode] = [
        .yamlSyntax, .yamlDuplicateKey, .yamlNonStrictBoolean, .yamlAnchorOrAlias, .yamlMergeKey, .yamlTag,
        .yamlMultipleDocuments, .yamlNonStringKey, .yamlInvalidUTF8, .yamlFileTooLarge, .yamlTooDeep,
        .yamlTooManyNodes, .yamlTabIndentation, .yamlEmptyFile, .yamlTooManyProblems,
    ]
}
