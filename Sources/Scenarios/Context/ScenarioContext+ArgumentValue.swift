extension ScenarioContext {
    /// Interpolates every string (not keys) in a value tree, for steps that pass JSON-like values through.
    package func interpolate(_ value: ArgumentValue) throws(ScenarioContextError) -> ArgumentValue {
        switch value {
        case .string(let text):
            return .string(try interpolate(text))
        case .list(let items):
            var out: [ArgumentValue] = []
            for item in items { out.append(try interpolate(item)) }
            return .list(out)
        case .mapping(let entries):
            var out: [ArgumentValue.Entry] = []
            for entry in entries { out.append(ArgumentValue.Entry(entry.key, try interpolate(entry.value))) }
            return .mapping(out)
        case .null, .bool, .int, .double:
            return value
        }
    }
}
