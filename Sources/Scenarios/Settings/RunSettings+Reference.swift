import SharedValues

extension RunSettings {
    /// docs/settings.md: the table is made from ``keys`` (each key's help and its default, read from a
    /// fresh ``RunSettings``); the prose around it is written here.
    package static var reference: String {
        let defaults = RunSettings()
        let rows = keys.map { key in
            let value = key.value(defaults)
            let shown = value == .null ? "none" : "`\(value.yamlFlow)`"
            return "| `\(key.name)` | \(shown) | \(key.help.replacingOccurrences(of: "|", with: "\\|")) |"
        }
        return """
            # Run settings — `scenario-run.yml`

            <!-- Made by `scenario-run reference settings` from the settings' declarations; CI fails when this \
            file differs. -->

            An optional file in the project's folder (beside `Scenarios/` and `Fixtures/`). Every key is optional;
            the command line and the environment override it (`--timeout`, `--fixtures`, `--fail-fast`,
            `KIF_EXIT_ON_FAILURE`, `KIF_SKIP_TEAR_DOWN`, `KIF_SCENARIO_FILTER`). A mistake is a located error
            (`scenario-run.yml:3:15: error: …` with the line and a caret, and a suggestion for a misspelt key), and
            nothing runs. Every mistake in the file is reported at once — a default step no step has (`Unknown step
            'set up the test enviroment' in 'default set up'. Did you mean …?`) together with the others.
            `scenario-run schema settings` prints its JSON Schema for editors.

            | key | default | what it does |
            | --- | --- | --- |
            \(rows.joined(separator: "\n"))

            Durations are seconds, greater than 0 and at most 86400 (a day); `settle time` may also be `0`, and `off`,
            `false` and `no` all turn it off.

            ## The settle time: when an expectation may give up early

            An expectation (`expect response`, `expect entities`, `expect cached response`, `expect request`, and an
            app's own steps marked `.givingUpWhenSettled()`) retries until its timeout, as a KIF step does. It gives
            up earlier only when nothing could still change its answer: before each attempt the runner reads what
            is running — work a step started (requests, app actions launched with `context.world.launch`), queued
            or in-flight requests, and every **idling resource** the app declares — and the expectation fails
            once all were idle and nothing changed for the settle time. Its reason says so:

            ```
            ✗ expect entities Message count 1
              0 Message object(s), expected 1 (gave up after 0.5 s, before the 10.0 s timeout: nothing was running and nothing changed for 0.5 s)
            ```

            Work the app starts by itself — a debounce after a notification, a timer, a sync loop — is invisible to
            the runner unless the app declares it (see [writing steps](writing-steps.md#idling-resources)). A debounce
            shorter than the settle time needs nothing; a longer one needs an idling resource, or `settle time: off`.
            While a step waits, its wait reason (in the live runner and `--verbose`) names what it waits on:
            `(waiting on idling resource 'outbox')`; a step that times out names what was still running.

            ## A sample

            Both example projects ship this file with every key at its default, commented:
            [`scenario-run.yml`](../scenario-run.yml), [`Examples/LibraryLoans/scenario-run.yml`](../Examples/LibraryLoans/scenario-run.yml).

            """
    }
}

extension JSONValue {
    /// The value as YAML's flow style writes it in `scenario-run.yml`: `10`, `0.05`, `Fixtures`, `[a, b]`.
    fileprivate var yamlFlow: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return String(value)
        case .int(let value): return String(value)
        case .double(let value): return String(value)
        case .string(let value): return value
        case .array(let items): return "[" + items.map(\.yamlFlow).joined(separator: ", ") + "]"
        case .object: return text
        }
    }
}
