import Diagnostics
import Scenarios
import SharedValues
import Testing

/// `scenario-run.yml`'s keys are declared once (``RunSettings/keys``): the reader, the schema and the
/// reference all follow the one list.
struct SettingKeysTests {
    /// Each key's default, written in the file as the reference shows it, reads back as the default: the
    /// declaration's reader and its value agree.
    @Test(arguments: RunSettings.keys.map(\.name))
    func aKeyWrittenAtItsDefaultReadsAsTheDefault(_ name: String) throws {
        let key = try #require(RunSettings.keys.first { $0.name == name })
        let value = key.value(RunSettings())
        let read = try RunSettings.load(yaml: "\(name): \(value.text)\n", file: "scenario-run.yml")
        #expect(key.value(read) == value)
    }

    /// A value other than the default is read into the setting the key declares.
    @Test func aKeyWrittenOtherwiseChangesItsSetting() throws {
        let read = try RunSettings.load(
            yaml: """
                step timeout: 2
                settle time: off
                leaks: warn
                unmatched requests: FAIL
                exclude: Scenarios/wip
                default tear down: []
                """,
            file: "scenario-run.yml"
        )
        let changed = RunSettings.keys.filter { $0.value(read) != $0.value(RunSettings()) }.map(\.name)
        #expect(
            Set(changed) == [
                "step timeout", "settle time", "leaks", "unmatched requests", "exclude", "default tear down",
            ]
        )
        #expect(RunSettings.keys.first { $0.name == "settle time" }?.value(read) == "off")
    }

    /// The schema's properties are the keys, each with its help and default.
    @Test func theSchemaIsMadeFromTheKeys() throws {
        let properties = try #require(RunSettings.schema[keyPath: "properties"])
        guard case .object(let members) = properties else { Issue.record("no properties"); return }
        #expect(Set(members.keys) == Set(RunSettings.keys.map(\.name)))
        for key in RunSettings.keys {
            #expect(members[key.name]?[keyPath: "description"] == .string(key.help))
            #expect(members[key.name]?[keyPath: "default"] == key.value(RunSettings()))
        }
    }

    /// The reference has one table row per key, with its default and help.
    @Test func theReferenceHasARowPerKey() {
        let rows = RunSettings.reference.split(separator: "\n").filter { $0.hasPrefix("| `") }
        #expect(rows.count == RunSettings.keys.count)
        #expect(rows.contains("| `step timeout` | `10` | \(RunSettings.keys[0].help) |"))
        #expect(rows.contains { $0.hasPrefix("| `retry interval` | `0.05` |") })
        #expect(rows.contains { $0.hasPrefix("| `default set up` | `[set up the test environment]` |") })
    }

    /// A misspelt key is suggested from the declared keys.
    @Test func anUnknownKeyIsSuggestedFromTheDeclaredOnes() {
        #expect {
            try RunSettings.load(yaml: "setle time: 1\n", file: "scenario-run.yml")
        } throws: { error in
            (error as? DiagnosticList)?.description.hasPrefix(
                "scenario-run.yml:1:1: error: Unknown setting 'setle time'. Did you mean 'settle time'?"
            ) == true
        }
    }
}
