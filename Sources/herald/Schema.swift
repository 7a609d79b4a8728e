import ArgumentParser
import Foundation
import HeraldPolicy

/// `herald schema`: the JSON Schema of bundle files, for editors and CI.
struct Schema: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the JSON Schema (draft 2020-12) that catalog and policy files follow."
    )

    @Option(name: [.short, .long], help: "Write the schema to this file instead of standard output.")
    var output: String?

    func validate() throws {
        guard let output else { return }
        let slash = output.lastIndex(of: "/")
        let parent = slash.map { $0 == output.startIndex ? "/" : String(output[..<$0]) } ?? "."
        if !Terminal.isDirectory(parent) {
            throw ValidationError("cannot write `\(output)`: `\(parent)` is not a directory")
        }
        if Terminal.isDirectory(output) {
            throw ValidationError("cannot write `\(output)`: it is a directory")
        }
    }

    func run() throws {
        let text = JSONSchemaGenerator.schemaText()
        guard let output else {
            print(text, terminator: "")
            return
        }
        do {
            try text.write(toFile: output, atomically: true, encoding: .utf8)
        } catch {
            throw ValidationError("cannot write `\(output)`: \(error.localizedDescription)")
        }
    }
}
