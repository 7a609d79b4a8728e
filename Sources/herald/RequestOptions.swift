import ArgumentParser

/// The arguments `decide`, `plan`, `reconcile` and `prompt` share: the policy, the request and the
/// output's layout.
struct RequestOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("The policy directory (policies/<app>).", valueName: "policy-dir"))
    var policyDirectory: String

    @Option(help: ArgumentHelp("The request JSON file, or `-` for standard input.", valueName: "file|-"))
    var request: String

    @Flag(help: "Print compact JSON on one line.")
    var compact = false
}
