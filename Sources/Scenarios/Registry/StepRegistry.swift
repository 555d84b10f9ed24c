/// The steps scenario files may use, looked up case-insensitively with runs of spaces collapsed.
///
/// Built with a ``Builder``, then frozen:
///
/// ```swift
/// var builder = StepRegistry.Builder()
/// try builder.register(stubRoute)
/// let registry = builder.build()
/// registry.definition(named: "Stub  Route")  // stubRoute
/// ```
package struct StepRegistry: Sendable {
    /// Collects step definitions, rejecting duplicate names.
    package struct Builder: Sendable {
        private var definitions: [String: StepDefinition] = [:]
        private var order: [String] = []

        package init() {}

        /// Adds a definition; throws when its name is empty or already taken.
        package mutating func register(_ definition: StepDefinition) throws(StepRegistryError) {
            let key = StepRegistry.normalize(definition.name)
            guard !key.isEmpty else { throw .emptyName }
            guard definitions[key] == nil else { throw .duplicateName(definition.name) }
            definitions[key] = definition
            order.append(key)
        }

        /// Whether a definition of that name (compared as lookups compare) is registered.
        package func contains(named name: String) -> Bool {
            definitions[StepRegistry.normalize(name)] != nil
        }

        /// Adds every definition, stopping at the first problem.
        package mutating func register(contentsOf definitions: [StepDefinition]) throws(StepRegistryError) {
            for definition in definitions { try register(definition) }
        }

        /// The frozen registry.
        package func build() -> StepRegistry {
            StepRegistry(definitions: definitions, order: order)
        }
    }

    private let byKey: [String: StepDefinition]
    private let order: [String]

    private init(definitions: [String: StepDefinition], order: [String]) {
        self.byKey = definitions
        self.order = order
    }

    /// An empty registry.
    package init() {
        self.init(definitions: [:], order: [])
    }

    /// The definition for `name`, ignoring case and extra spaces.
    package func definition(named name: String) -> StepDefinition? {
        // Names are nearly always written as registered: try the name itself before normalizing it.
        byKey[name] ?? byKey[Self.normalize(name)]
    }

    /// Every definition, in registration order.
    package var definitions: [StepDefinition] {
        order.compactMap { byKey[$0] }
    }

    /// Every registered name as written at registration, for suggestions.
    package var names: [String] {
        definitions.map(\.name)
    }

    /// Lower-cased, trimmed, with every run of whitespace collapsed to one space.
    package static func normalize(_ name: String) -> String {
        name.lowercased().split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}
