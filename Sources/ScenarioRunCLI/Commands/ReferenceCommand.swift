import ArgumentParser
import Scenarios

/// `scenario-run reference command-line|settings` — the reference of the command line or of
/// `scenario-run.yml` as markdown, made from the declarations themselves: how docs/command-line.md and
/// docs/settings.md are made (CI fails when they differ).
struct ReferenceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reference",
        abstract: "Print the reference of the command line or of scenario-run.yml, as markdown.",
        discussion: """
            Made from the options' and settings' own declarations: it is how docs/command-line.md and \
            docs/settings.md are made.
            """
    )

    enum Topic: String, ExpressibleByArgument, CaseIterable {
        case commandLine = "command-line"
        case settings
    }

    @Argument(help: ArgumentHelp("command-line or settings.", valueName: "TOPIC"))
    var topic: Topic

    func run() throws {
        switch topic {
        case .commandLine: print(try CommandLineReference.markdown(), terminator: "")
        case .settings: print(RunSettings.reference, terminator: "")
        }
    }
}
