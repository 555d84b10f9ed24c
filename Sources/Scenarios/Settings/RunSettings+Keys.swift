import Diagnostics
package import SharedValues
import YAMLSource

extension RunSettings {
    /// Every key of `scenario-run.yml`, in the order the reference lists them.
    package static let keys: [SettingKey] = [
        .seconds(
            "step timeout",
            \.stepTimeout,
            help: "seconds a step may keep answering *wait* (and an HTTP request a step makes may take); "
                + "`--timeout` overrides it"
        ),
        .seconds(
            "retry interval",
            \.retryInterval,
            help: "seconds between retries of a waiting step when nothing signals a change (a request finishing, "
                + "the journal growing, an idling resource going idle wake it at once)"
        ),
        settleTime,
        .stepNames(
            "default set up",
            \.defaultSetUp,
            sources: \.defaultSetUpSources,
            help: "step names run before every scenario (KIF's `setDefaultStepsToSetUp`); a name or a list"
        ),
        .stepNames(
            "default tear down",
            \.defaultTearDown,
            sources: \.defaultTearDownSources,
            help: "step names run after every scenario, also after a failure"
        ),
        .folder("fixtures", \.fixtures, help: "the fixture folder (`--fixtures` overrides it)"),
        .folder(
            "scenarios",
            \.scenarios,
            help: "the folder searched for `*.yml` / `*.yaml` when no path is given"
        ),
        .folders(
            "exclude",
            \.exclude,
            help: "folders skipped when searching, unless a path on the command line names them"
        ),
        .boolean("fail fast", \.failFast, help: "stop after the first failing scenario (`--fail-fast`)"),
        .mode(
            "unmatched requests",
            \.unmatchedRequests,
            help: "what a request no stub-server route answers does: `warn` logs it with the nearest routes in "
                + "the scenario's log, `fail` fails the scenario's `check for leaks`, `off` says nothing "
                + "([the stub server](server.md#unmatched-requests))"
        ),
        .file(
            "openapi",
            \.openapi,
            help: "the API's OpenAPI 3.0 or 3.1 document (YAML or JSON); `check` holds every `server.yml` route "
                + "and fixture to it, and a run every request the app sends ([the contract](contract.md)); "
                + "`--openapi` overrides it for `check`"
        ),
        .mode(
            "contract",
            \.contract,
            help: "with `openapi:`, what a request the app sends that breaks the document does: `fail` fails the "
                + "first step to end after the request arrived (the sender, or a later step naming it), with "
                + "what it breaks; `warn` names it in the scenario's log; `off` does not check requests "
                + "([the contract](contract.md#runs-hold-the-apps-requests-to-it))"
        ),
        .mode(
            "leaks",
            \.leaks,
            help: "what `check for leaks` does with what a scenario left behind: `fail`, `warn` (reported, not "
                + "failed) or `off`"
        ),
        .file(
            "html report",
            \.htmlReport,
            help: "also write the run's HTML report there, as `--html FILE` does (which overrides it; "
                + "[the HTML report](html-report.md))"
        ),
    ]

    /// `settle time`: seconds, `0`, or `off` (`false`, `no`).
    private static let settleTime = SettingKey(
        name: "settle time",
        help: "seconds nothing may run or change before a failing expectation gives up ahead of its timeout; "
            + "`off` always waits out the timeout (see below)",
        value: { settings in settings.settleTime.map(JSONValue.seconds) ?? "off" },
        type: ["anyOf": [["type": "number", "minimum": 0, "maximum": 86_400], ["enum": ["off"]]]],
        read: { node, settings, reader in
            guard let text = node.string else {
                return reader.report("'settle time' must be a number of seconds or off, not \(node.summary).", node)
            }
            if ["off", "false", "no"].contains(text.lowercased()) {
                settings.settleTime = nil
            } else if let number = Double(text), number == 0 {
                settings.settleTime = .zero
            } else if Double(text) == nil {
                reader.report(
                    "'settle time' must be a number of seconds or off, not '\(text)'."
                        + Suggestions.didYouMean(text, in: ["off"]),
                    node
                )
            } else {
                reader.seconds("settle time", node).map { settings.settleTime = $0 }
            }
        }
    )

    /// The JSON Schema (draft 2020-12) of `scenario-run.yml`: every key, its type, what it does and its
    /// default — from ``keys``.
    package static var schema: JSONValue {
        let defaults = RunSettings()
        var properties: [String: JSONValue] = [:]
        for key in keys {
            guard case .object(var object) = key.type else { continue }
            object["description"] = .string(key.help)
            object["default"] = key.value(defaults)
            properties[key.name] = .object(object)
        }
        return [
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "scenario-run settings (scenario-run.yml)",
            "type": ["object", "null"],
            "properties": .object(properties),
            "additionalProperties": false,
        ]
    }
}
