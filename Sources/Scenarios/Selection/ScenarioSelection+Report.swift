extension ScenarioSelection {
    /// How this selection ordered and cut the run, for the JUnit report: `shuffle seed` and `shard`
    /// properties (none for a plain run).
    package var reportProperties: [JUnitProperty] {
        var properties: [JUnitProperty] = []
        if let shuffle { properties.append(JUnitProperty(name: "shuffle seed", value: String(shuffle.seed))) }
        if let shard { properties.append(JUnitProperty(name: "shard", value: shard.description)) }
        return properties
    }

    /// The same for the live runner's status line (`seed 42  shard 2/3`); `nil` for a plain run.
    package var orderNote: String? {
        let parts = [shuffle.map { "seed \($0.seed)" }, shard.map { "shard \($0)" }].compactMap(\.self)
        return parts.isEmpty ? nil : parts.joined(separator: "  ")
    }
}
