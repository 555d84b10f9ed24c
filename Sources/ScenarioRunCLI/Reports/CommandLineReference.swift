import ArgumentParser
import Foundation

/// docs/command-line.md, made from the commands' own declarations: the synopsis is the derived root usage,
/// each command's section its abstract and discussion, and its table every argument's help (abstract,
/// default, discussion) as argument-parser describes it. Only what no declaration holds — the longer
/// topics, the environment, exit codes and files — is written here.
enum CommandLineReference {
    /// The page.
    static func markdown() throws -> String {
        let name = RootCommand.executableName
        let root = try JSONDecoder().decode(Dump.self, from: Data(RootCommand._dumpHelp().utf8)).command
        var page = """
            # Command line

            <!-- Made by `scenario-run reference command-line` from the options' declarations; CI fails when \
            this file differs. -->

            `\(name)` (or an app's own executable built on `ScenarioRun.run(app:)`, which has the same
            commands) runs the scenario files of a project: on a terminal the live runner opens, with `--ci` or
            when output is not a terminal it prints plain lines.

            ```
            \(RootCommand.usage(name: name))
            \(name) help [COMMAND]
            ```

            """
        let shown = Set(RootCommand.visibleCommands.compactMap { $0.configuration.commandName })
        for command in root.subcommands ?? [] where shown.contains(command.commandName) {
            let title =
                command.commandName == root.defaultSubcommand
                ? "`\(command.commandName)` (the default)" : "`\(command.commandName)`"
            page += "\n## \(title)\n\n"
            page += paragraph([command.abstract, command.discussion]) + "\n"
            let rows = (command.arguments ?? []).filter { $0.shouldDisplay && $0.preferredName?.name != "help" }
            if !rows.isEmpty {
                page += "\n| argument | meaning |\n| --- | --- |\n"
                for argument in rows { page += "| \(cell(argument.synopsis)) | \(cell(argument.meaning)) |\n" }
            }
            if let topics = topics[command.commandName] { page += "\n" + topics }
        }
        return page + "\n" + closing
    }

    /// Texts as one markdown paragraph: argument-parser's help wraps nothing, so a line break in a
    /// declaration is a space.
    /// A `docs/events.md` the terminal's help names becomes a link beside it on the page.
    private static func paragraph(_ texts: [String?]) -> String {
        texts.compactMap { $0?.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
            .joined(separator: " ").replacingOccurrences(of: "\n", with: " ")
            .replacing(/docs\/([a-z-]+\.md)/) { "[\($0.1)](\($0.1))" }
    }

    private static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }

    /// The part of argument-parser's `--experimental-dump-help` this page reads.
    private struct Dump: Decodable {
        var command: Command
    }

    private struct Command: Decodable {
        var commandName: String
        var abstract: String?
        var discussion: String?
        var defaultSubcommand: String?
        var subcommands: [Command]?
        var arguments: [Argument]?
    }

    private struct Argument: Decodable {
        struct Name: Decodable {
            var kind: String
            var name: String
            var text: String { kind == "short" ? "-" + name : "--" + name }
        }
        var kind: String
        var shouldDisplay: Bool
        var isRepeating: Bool
        var names: [Name]?
        var preferredName: Name?
        var valueName: String?
        var defaultValue: String?
        var allValues: [String]?
        var abstract: String?
        var discussion: String?

        /// `--jobs N`, `-C DIR`, `--project DIR`, `PATH ...`, `--ci`.
        var synopsis: String {
            let value = allValues.map { $0.joined(separator: "|") } ?? valueName ?? ""
            switch kind {
            case "positional": return "`\(valueName ?? value)\(isRepeating ? " ..." : "")`"
            case "flag": return (names ?? []).map { "`\($0.text)`" }.joined(separator: ", ")
            default: return (names ?? []).map { "`\($0.text) \(value)`" }.joined(separator: ", ")
            }
        }

        var meaning: String {
            let says = (abstract ?? "").lowercased().contains("default")
            let fallback = defaultValue.flatMap { says || kind == "flag" ? nil : "Default: \($0)." }
            let head = [abstract, fallback].compactMap { $0 }.joined(separator: " ")
            return CommandLineReference.paragraph([head, discussion])
        }
    }

    /// What a command's table cannot say: the longer topics, after the table.
    private static let topics: [String: String] = [
        "run": """
        `--in-process` with `--jobs` above 1, and `--watch` with `--list`, are usage errors (exit 2).

        ### Tag expressions

        `--tag` takes a Cucumber tag expression: tags combined with `and`, `or`, `not` and parentheses, `not`
        binding tightest and `or` loosest; the `@` is optional (`smoke` is `@smoke`).

        ```
        scenario-run --tag smoke
        scenario-run --tag '@smoke and not (@slow or @flaky)'
        scenario-run --tag reviews --tag store        # either: any of the --tag expressions
        ```

        A malformed expression is a usage error (exit 2) that says what is wrong (`'&&' is not an operator.
        Did you mean 'and'?`, `'(' is never closed.`). A tag no loaded scenario has is a usage error too, with
        the nearest tag: `error: No scenario matches --tag @smokey (26 loaded). Did you mean @smoke?` — a typo
        fails even with `--allow-empty`.

        ### An empty selection

        When the options select no scenario, the run says why and exits **4**, unless `--allow-empty`:

        ```
        $ scenario-run --ci --filter '^Posting a reveiw'
        error: No scenario matches --filter '^Posting a reveiw' (26 loaded). Did you mean …?
        ```

        `--rerun-failed` after a run without failures selects nothing: `The last run recorded no failures.`
        A shard that gets no scenario while the selection has some in other shards exits 0 and says so
        (`Shard 5/7 has none of the 5 selected scenarios (5 loaded); nothing to run.`); its JUnit report and
        state file are written as for any run.

        ### `--watch`

        The live runner (and `--ci --watch`, which prints each re-run) keeps running after the first run and
        watches the scenario files it loaded, `scenario-run.yml` and the fixture folder (with `server.yml`):

        - a saved scenario file is loaded again and its selected scenarios run again;
        - a change to `scenario-run.yml`, `server.yml` or a fixture reloads everything and runs the whole
          selection again;
        - a file that no longer loads shows its errors with their carets (the live runner in a pane, headless
          on stderr) and nothing runs until it is fixed, when the error clears and the run follows;
        - saves within 200 ms of each other are one change (editors write a temporary file and rename it);
        - in the live runner a change during a run cancels it (tear-down runs) and runs again; headless, the
          run in progress finishes first.

        Changes are seen through inotify — a scenario file reached through a symbolic link is watched at its
        target too — and editors' temporary files (`.name.swp`, `name~`, `#name#`, `.#name`, `4913`, `*.tmp`,
        JetBrains' `___jb_tmp___`) are not changes. With `SCENARIO_RUN_WATCH_POLL=1`, where inotify is not
        available, or when it will not add a watch (`fs.inotify.max_user_watches` reached), files are compared
        every 300 ms, and a line says why: `Watching by polling every 0.3 s: inotify could not watch 'Fixtures'
        (…)`. When inotify's queue overflows (a `git checkout` of many files), every watched file is compared
        with what it was, and a line says so. A run whose workers read a scenario after a save that renamed it or moved
        it stops with `The scenario files changed while the run started`; the watch runs again. **The
        app's Swift code is not watched**: it needs a build; quit, `swift build`, and start again. Headless,
        `--ci --watch` runs until Ctrl-C; the exit status and `--junit` report are those of the last run. New
        scenario files are not picked up until the next start.

        """
    ]

    /// The environment, exit codes and files: no option declares them.
    private static let closing = """
        ## Environment variables

        | variable | meaning |
        | --- | --- |
        | `KIF_SKIP_TEAR_DOWN` | Skip tear-down (reported skipped) and keep the last scenario's store at `.scenario-run/last-store.sqlite`, printing an `sqlite3` command for each table with rows (entities', then the join tables of many-to-many relationships, `Book_authors`); runs in this process. |
        | `KIF_SCENARIO_FILTER` | As `--filter` (the option wins). |
        | `KIF_EXIT_ON_FAILURE` | As `--fail-fast`. |
        | `NO_COLOR` | No colours (any value). |
        | `TERM` | Unset, `dumb` or not in the terminfo database: the live runner runs headless and says so in a `note:`; `dumb`: no colours. |
        | `CI_NODE_INDEX`/`CI_NODE_TOTAL` (1-based), `CIRCLE_NODE_INDEX`/`CIRCLE_NODE_TOTAL`, `BUILDKITE_PARALLEL_JOB`/`BUILDKITE_PARALLEL_JOB_COUNT` (0-based) | Pick the shard when there is no `--shard`. |
        | `SSL_CERT_FILE` | A PEM file of the certificates an `https` target of `record`, `--record` and `verify` is verified against, instead of the system's CA bundle (docs/record.md). |
        | `SCENARIO_RUN_EVENT_LOOPS` | NIO event loops for the client and the stub server (1). |
        | `SCENARIO_RUN_WATCH_POLL` | `--watch` polls instead of using inotify. |
        | `SCENARIO_RUN_WATCH_TEST_FAULT` | For scenario-run's own tests of `--watch`: `watch-limit=N` makes inotify refuse watches after N, `overflow` reads the first events as an overflow of its queue. |

        Each `KIF_*` variable counts when it is set to any non-blank value (`0` and `false` included), as in KIF.
        There is no environment variable for `--tag`.

        ## Exit codes

        | code | meaning |
        | --- | --- |
        | 0 | Every selected scenario passed (skipped ones do not fail a run); also an empty shard, and an empty selection with `--allow-empty`. |
        | 1 | At least one scenario failed, or the run was cancelled. |
        | 2 | A usage error (an unknown option, a malformed `--tag`, a tag no scenario has, a `PATH:LINE` at no scenario, a missing `--project` folder) or a scenario file, `server.yml` or `scenario-run.yml` that cannot be loaded; nothing runs. |
        | 4 | The options select no scenario (the reason and a suggestion on stderr); nothing runs. |
        | 130 | A second Ctrl-C quit at once. |

        ## Files under `.scenario-run/`

        Written in the project's folder (the current one, or `-C DIR`):

        | file | what |
        | --- | --- |
        | `last-failed.json` | `{"failed": [{"file": …, "name": …}]}`: the failed scenarios (the file by real path, relative to the current folder; an older file's bare names still read as a name in any file), for `--rerun-failed`; scenarios a run did not run keep what the previous run said. |
        | `last-store.sqlite` | With `KIF_SKIP_TEAR_DOWN`: the store the last scenario left, for `sqlite3`. Only a file scenario-run kept is ever replaced. |
        | `last-requests.json` | The distinct requests (method and path) the last run's scenarios sent, at most 10,000, for `check`'s coverage of the OpenAPI document ([the contract](contract.md)); a run in which no scenario ran keeps the previous one's. |

        """
}
