import Diagnostics
package import SharedValues
import YAMLSource

/// One key of `scenario-run.yml`, declared once: the file's reader, its JSON Schema
/// (`scenario-run schema settings`) and its reference (`scenario-run reference settings`, which is
/// docs/settings.md) all read this declaration. Adding a key is one entry of ``RunSettings/keys``.
package struct SettingKey: Sendable {
    /// The key as written in the file (`step timeout`).
    package let name: String
    /// What it does, in markdown: the reference's table and the schema's description.
    package let help: String
    /// Its value in `settings`, as the file would write it: the default shown in the reference and the schema.
    package let value: @Sendable (RunSettings) -> JSONValue
    /// The JSON Schema of its value.
    let type: JSONValue
    /// Reads the key's value into `settings`; a value it cannot take is reported to `reader` instead.
    let read: @Sendable (YAMLNode, inout RunSettings, inout SettingReader) -> Void

    /// A number of seconds, greater than 0 and at most a day.
    static func seconds(
        _ name: String,
        _ keyPath: any WritableKeyPath<RunSettings, Duration> & Sendable,
        help: String
    ) -> SettingKey {
        SettingKey(
            name: name,
            help: help,
            value: { .seconds($0[keyPath: keyPath]) },
            type: ["type": "number", "exclusiveMinimum": 0, "maximum": 86_400],
            read: { node, settings, reader in reader.seconds(name, node).map { settings[keyPath: keyPath] = $0 } }
        )
    }

    /// A folder path.
    static func folder(_ name: String, _ keyPath: any WritableKeyPath<RunSettings, String> & Sendable, help: String)
        -> SettingKey
    {
        SettingKey(
            name: name,
            help: help,
            value: { .string($0[keyPath: keyPath]) },
            type: ["type": "string", "minLength": 1],
            read: { node, settings, reader in
                guard let text = node.string, !text.isEmpty else {
                    return reader.report("'\(name)' must be a folder path.", node)
                }
                settings[keyPath: keyPath] = text
            }
        )
    }

    /// A file path, or none.
    static func file(_ name: String, _ keyPath: any WritableKeyPath<RunSettings, String?> & Sendable, help: String)
        -> SettingKey
    {
        SettingKey(
            name: name,
            help: help,
            value: { $0[keyPath: keyPath].map(JSONValue.string) ?? .null },
            type: ["type": ["string", "null"], "minLength": 1],
            read: { node, settings, reader in
                if node.isNull { return settings[keyPath: keyPath] = nil }
                guard let text = node.string, !text.isEmpty else {
                    return reader.report("'\(name)' must be a file path.", node)
                }
                settings[keyPath: keyPath] = text
            }
        )
    }

    /// A list of step names (or one name), with where each was written.
    static func stepNames(
        _ name: String,
        _ keyPath: any WritableKeyPath<RunSettings, [String]> & Sendable,
        sources: any WritableKeyPath<RunSettings, [Diagnostic.Source]> & Sendable,
        help: String
    ) -> SettingKey {
        SettingKey(
            name: name,
            help: help,
            value: { .array($0[keyPath: keyPath].map(JSONValue.string)) },
            type: oneOrMoreStrings,
            read: { node, settings, reader in
                switch node.content {
                case .scalar(let text, _) where text.isEmpty:
                    (settings[keyPath: keyPath], settings[keyPath: sources]) = ([], [])
                    return
                case .scalar(let text, _):
                    (settings[keyPath: keyPath], settings[keyPath: sources]) = ([text], [reader.place(node)])
                    return
                case .sequence(let items):
                    let names = items.compactMap(\.string)
                    if names.count == items.count {
                        (settings[keyPath: keyPath], settings[keyPath: sources]) = (names, items.map(reader.place))
                        return
                    }
                default: break
                }
                reader.report("'\(name)' must be a list of step names.", node)
            }
        )
    }

    /// A list of folders (or one).
    static func folders(_ name: String, _ keyPath: any WritableKeyPath<RunSettings, [String]> & Sendable, help: String)
        -> SettingKey
    {
        SettingKey(
            name: name,
            help: help,
            value: { .array($0[keyPath: keyPath].map(JSONValue.string)) },
            type: oneOrMoreStrings,
            read: { node, settings, reader in
                if let items = node.items, items.allSatisfy({ $0.string != nil }) {
                    settings[keyPath: keyPath] = items.compactMap(\.string)
                } else if let single = node.string {
                    settings[keyPath: keyPath] = [single]
                } else {
                    reader.report("'\(name)' must be a list of folders.", node)
                }
            }
        )
    }

    /// `true` or `false` (`yes`, `no`).
    static func boolean(_ name: String, _ keyPath: any WritableKeyPath<RunSettings, Bool> & Sendable, help: String)
        -> SettingKey
    {
        SettingKey(
            name: name,
            help: help,
            value: { .bool($0[keyPath: keyPath]) },
            type: ["type": "boolean"],
            read: { node, settings, reader in
                switch node.string?.lowercased() {
                case "true"?, "yes"?: settings[keyPath: keyPath] = true
                case "false"?, "no"?: settings[keyPath: keyPath] = false
                default: reader.report("'\(name)' must be true or false.", node)
                }
            }
        )
    }

    /// One of a mode's cases, by name, in any case.
    static func mode<Mode: RawRepresentable<String> & CaseIterable & Sendable>(
        _ name: String,
        _ keyPath: any WritableKeyPath<RunSettings, Mode> & Sendable,
        help: String
    ) -> SettingKey {
        let names = Mode.allCases.map(\.rawValue)
        return SettingKey(
            name: name,
            help: help,
            value: { .string($0[keyPath: keyPath].rawValue) },
            type: ["enum": .array(names.map(JSONValue.string))],
            read: { node, settings, reader in
                if let text = node.string, let mode = Mode(rawValue: text.lowercased()) {
                    settings[keyPath: keyPath] = mode
                    return
                }
                let expected = "'\(name)' must be \(SettingKey.either(names)), not \(node.summary)."
                guard let text = node.string else { return reader.report(expected, node) }
                // `warning`, `failure`: a mode that starts the word is what was meant.
                let started = names.filter { text.lowercased().hasPrefix($0) }
                let near = started.isEmpty ? Suggestions.nearest(to: text, in: names) : started
                reader.report(expected + Suggestions.didYouMean(suggestions: near), node)
            }
        )
    }

    private static let oneOrMoreStrings: JSONValue = [
        "anyOf": [["type": "string"], ["type": "array", "items": ["type": "string"]]]
    ]

    /// `a, b or c`.
    static func either(_ names: [String]) -> String {
        guard let last = names.last, names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " or " + last
    }
}

extension JSONValue {
    /// A duration as the settings file writes it: whole seconds as an integer (`10`), others as a
    /// number (`0.05`).
    static func seconds(_ duration: Duration) -> JSONValue {
        let (seconds, attoseconds) = duration.components
        if attoseconds == 0 { return .int(Int(seconds)) }
        return .double(Double(seconds) + Double(attoseconds) / 1e18)
    }
}

/// What reading `scenario-run.yml` found wrong, each located in the file.
struct SettingReader {
    let file: String
    let source: SourceText
    var problems: [Diagnostic] = []

    func location(_ node: YAMLNode) -> SourceLocation {
        SourceLocation(file: file, line: node.line, column: node.column)
    }

    func place(_ node: YAMLNode) -> Diagnostic.Source {
        Diagnostic.Source(location: location(node), in: source)
    }

    mutating func report(_ message: String, _ node: YAMLNode) {
        problems.append(Diagnostic(message, at: location(node), in: source))
    }

    /// A positive number of seconds, at most a day.
    mutating func seconds(_ key: String, _ node: YAMLNode) -> Duration? {
        guard let value = node.string.flatMap(Double.init), value > 0, let duration = Duration(checkedSeconds: value)
        else {
            report("'\(key)' must be a positive number of seconds, at most 86400 (a day).", node)
            return nil
        }
        return duration
    }
}
