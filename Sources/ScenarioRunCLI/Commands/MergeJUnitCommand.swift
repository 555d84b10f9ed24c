import ArgumentParser
import Foundation
import RunPipeline
import Scenarios

/// `scenario-run merge-junit OUT FILE...` — one JUnit report from the reports of a run's shards.
struct MergeJUnitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge-junit",
        abstract: "Merge the JUnit reports of a run's shards into one.",
        discussion: """
            Testsuites of the same name become one with all their testcases; counts and times are summed; \
            properties are kept. OUT is written whole or not at all.
            """
    )

    @Argument(help: ArgumentHelp("The merged report to write.", valueName: "OUT"))
    var output: String

    @Argument(help: ArgumentHelp("The shards' JUnit reports.", valueName: "FILE"))
    var files: [String] = []

    func validate() throws {
        if files.isEmpty {
            throw ValidationError("merge-junit takes the merged report's path, then the JUnit files to merge.")
        }
        if let problem = FileWriteError.problem(writing: output) { throw ValidationError("\(problem)") }
    }

    func run() throws {
        do {
            var reports: [(path: String, data: Data)] = []
            for path in files {
                do {
                    reports.append((path, try Data(contentsOf: URL(fileURLWithPath: path))))
                } catch {
                    throw Self.unreadable(path, error)
                }
            }
            let xml = try JUnitMerge.merge(reports)
            try FileWriteError.write(Data(xml.utf8), to: URL(fileURLWithPath: output))
        } catch {
            Terminal.printError(Self.text(error))
            throw ExitCode(2)
        }
    }

    /// An error as printed: a malformed file compiler-style already (`FILE:LINE:COL: error: …`), the
    /// rest after `error: `.
    static func text(_ error: any Error) -> String {
        if case JUnitMergeError.malformed(let diagnostic)? = error as? JUnitMergeError { return diagnostic.description }
        return "error: \(error)"
    }

    /// A JUnit file that could not be read (`error`), said in words; also `--shard-timings`'.
    static func unreadable(_ path: String, _ error: any Error) -> JUnitMergeError {
        var isFolder: ObjCBool = false
        if !FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
            return .unreadable(path: path, reason: "there is no such file")
        }
        if isFolder.boolValue { return .unreadable(path: path, reason: "it is a folder") }
        return .unreadable(path: path, reason: error.localizedDescription)
    }
}
