import ArgumentParser
import Foundation
import HeraldContract
import HeraldEngine
import HeraldPolicy
import HeraldStore
import HeraldSyntax

/// `herald decide <policy-dir> --request <file|->`: one decision as JSON.
struct Decide: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Decide one notification request and print the decision as JSON.",
        discussion: """
            The request is the JSON of docs/decisions.md; `-` reads it from standard input.
            With `--store`, the decision is made against the user's stored ledger and what it schedules \
            is recorded, atomically (docs/store.md); the request's `history` is not read. Without it, \
            the decision is pure.
            Exit codes: 0 decided, 1 the policy is invalid, the request is bad or the store failed, 64 bad usage.
            """
    )

    @OptionGroup var options: RequestOptions

    @Option(help: ArgumentHelp("Decide against and record in this ledger store: `sqlite:PATH`; default: none (pure).", valueName: "url"))
    var store: String?

    @Option(help: ArgumentHelp("With --store: the request's idempotency key; a key already decided returns the stored decision.",
                               valueName: "key"))
    var idempotencyKey: String?

    func run() async throws {
        let loaded = try DecisionInput.load(options.policyDirectory)
        let text = try DecisionInput.read(options.request)
        if let store {
            let request: DecisionRequest
            do {
                request = try DecisionRequest.parse(text)
            } catch {
                try DecisionInput.fail(error)
            }
            let result = try await StoreOpener.run {
                try await StoreOpener.with(store) { opened in
                    try await DecisionRecorder(engine: loaded.engine, store: opened).decide(request, idempotencyKey: idempotencyKey)
                }
            }
            // The stored bytes as they are with --compact; re-indented otherwise.
            if options.compact {
                print(result.response)
            } else {
                print((try? JSON.parse(result.response))?.serialized(pretty: true) ?? result.response)
            }
            return
        }
        guard idempotencyKey == nil else { throw ValidationError("`--idempotency-key` needs `--store`") }
        let decisions = try DecisionInput.decideAll(text, engine: loaded.engine)
        print(DecisionResponse.json(decisions, engine: loaded.engine).serialized(pretty: !options.compact))
    }
}

/// What `decide`, `explain` and `plan` share: loading the policy and the request.
enum DecisionInput {
    struct Loaded {
        var engine: Engine
        var sources: [String: SourceFile]
    }

    /// Validates and compiles the policy; on errors prints them to standard error and exits 1.
    static func load(_ directory: String) throws -> Loaded {
        guard Terminal.isDirectory(directory) else {
            throw ValidationError("`\(directory)` is not a policy directory")
        }
        let result = Validator.validate(directory, lints: false)
        guard let bundle = result.bundle else {
            let renderer = DiagnosticRenderer(format: .text, color: false)
            let errors = result.diagnostics.items.filter { $0.severity == .error }
            Terminal.writeError(renderer.render(errors, sources: result.sources) + "\n")
            throw ExitCode(1)
        }
        return Loaded(engine: Engine(bundle: bundle), sources: result.sources)
    }

    /// The request text from a file or standard input (`-`).
    static func read(_ path: String) throws -> String {
        let data: Data?
        if path == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            data = FileManager.default.contents(atPath: path)
        }
        guard let data else {
            // A usage problem (exit 64), stated plainly rather than with the root command's usage.
            Terminal.writeError("error: cannot read request file `\(path)`\n")
            throw ExitCode(64)
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Reads a request with `parse` and answers it with `answer`; the request's problems (of
    /// either) go to standard error, one per line, and exit 1.
    static func answer<Request, Answer>(_ text: String, parse: (String) throws(RequestErrors) -> Request,
                                        _ answer: (Request) -> Result<Answer, RequestErrors>) throws -> Answer {
        let request: Request
        do {
            request = try parse(text)
        } catch {
            try fail(error)
        }
        switch answer(request) {
        case .success(let answered): return answered
        case .failure(let errors): try fail(errors)
        }
    }

    /// Parses and decides.
    static func decide(_ text: String, engine: Engine) throws -> Decision {
        try answer(text, parse: { text throws(RequestErrors) in try DecisionRequest.parse(text) }) { engine.decide($0, now: $0.now) }
    }

    /// Parses and decides on every channel (`Engine.decideAll`): one decision, or one per
    /// channel of a `delivery: all` type.
    static func decideAll(_ text: String, engine: Engine) throws -> [Decision] {
        try answer(text, parse: { text throws(RequestErrors) in try DecisionRequest.parse(text) }) { engine.decideAll($0, now: $0.now) }
    }

    /// Prints every request problem to standard error, one per line, and exits 1.
    static func fail(_ errors: RequestErrors) throws -> Never {
        Terminal.writeError(message(errors) + "\n")
        throw ExitCode(1)
    }

    /// `error: request: <path>: <message>` lines (`error[H0256]: …` for a problem with a code).
    static func message(_ errors: RequestErrors) -> String {
        (errors.errors.map { "error\($0.code.map { "[\($0)]" } ?? ""): request: \($0.path): \($0.message)" }
            + (errors.omitted > 0 ? ["error: request: … and \(errors.omitted) more problems"] : [])).joined(separator: "\n")
    }

    /// One line of a source the validator read.
    static func sourceLine(_ sources: [String: SourceFile]) -> Explanation.SourceLines {
        { path, line in
            guard let file = sources[path], line >= 1, line <= file.lineStarts.count else { return nil }
            return file.lineText(line)
        }
    }
}
