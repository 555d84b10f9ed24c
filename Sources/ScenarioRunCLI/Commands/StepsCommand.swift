import ArgumentParser
import Diagnostics
import Foundation
import RunPipeline
import Scenarios
import Steps

/// `scenario-run steps [NAME] [--format text|markdown|json] [--built-in]` — the step catalogue, from the
/// steps' own declarations: every built-in step and the app's own.
struct StepsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "steps",
        abstract: "List every step scenario files can use: arguments, types, defaults, an example, where defined.",
        discussion: """
            The built-in steps and the app's own, each with its forms, argument keys, types and defaults, an \
            example, and where it is defined (an app step's Swift file and line). A NAME no step has is a usage \
            error (exit 2) with the nearest names: `error: Unknown step 'stub rout'. Did you mean 'stub route'?`. \
            `--built-in` is how docs/steps.md is made.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, markdown, json
    }

    @Argument(help: ArgumentHelp("Show only this step.", valueName: "NAME"))
    var name: String?

    @Option(help: "text (default), markdown (docs/steps.md) or json.")
    var format: Format = .text

    @Flag(name: .customLong("built-in"), help: "Only the built-in steps (how docs/steps.md is made).")
    var builtInOnly = false

    /// The introduction of the markdown page.
    static let introduction = """
        Every built-in step scenario files can use, generated from the steps' own declarations by \
        `scenario-run steps --built-in --format markdown` (CI fails when this file differs). Your app's own steps \
        are listed by `swift run YOUR-EXECUTABLE steps`. Step names match case-insensitively with runs of spaces \
        collapsed; a step is a one-key mapping (`- name: arguments`) or a bare name when it takes none. Arguments \
        written as text may hold `${name}` or `${name.attribute}` references to objects bound with `as:`; a \
        number, duration or true/false written as a reference is converted when the step runs. See \
        [scenario files](scenario-files.md) for the rest of the file.
        """

    func run() async throws {
        var sections = [
            StepCatalogue.Section(title: "Built-in steps", definitions: BuiltInSteps.definitions, isBuiltIn: true)
        ]
        if !builtInOnly {
            sections.append(
                StepCatalogue.Section(
                    title: "The app's steps",
                    definitions: RootCommand.appUnderTest.steps,
                    isBuiltIn: false
                )
            )
        }
        var catalogue = StepCatalogue(
            sections: sections,
            directory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        )
        if let name {
            guard let only = catalogue.only(named: name) else {
                // The error and its suggestion, without the whole usage after them (a ValidationError's).
                Terminal.printError(
                    "error: Unknown step '\(name)'." + Suggestions.didYouMeanOrKnown(name, in: catalogue.names)
                )
                throw ExitCode(2)
            }
            catalogue = only
        }
        switch format {
        case .text: print(catalogue.text(), terminator: "")
        case .markdown: print(catalogue.markdown(title: "Steps", introduction: Self.introduction), terminator: "")
        case .json: print(String(decoding: catalogue.json().encoded(sortedKeys: true), as: UTF8.self))
        }
    }
}
