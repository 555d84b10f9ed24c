import Diagnostics
public import ObjectManager
public import Scenarios

extension ArgumentType where Value == HTTPMethod {
    /// An HTTP method, any case: `POST`, `get`.
    public static var method: ArgumentType {
        let words = HTTPMethod.allCases.map(\.rawValue)
        return ArgumentType(
            name: "HTTP method",
            schema: ["enum": .array((words + words.map { $0.lowercased() }).map(JSONValue.string))]
        ) {
            (node: StepArguments, build: StepBuildContext) throws(StepArgumentError) -> Resolvable<HTTPMethod> in
            let text = try ArgumentType<String>.string.readLiteral(node, build)
            guard let method = HTTPMethod(name: text) else {
                throw StepArgumentError(
                    "Unknown HTTP method '\(text)'."
                        + Suggestions.didYouMeanOrKnown(text.uppercased(), in: words, label: "Valid methods are"),
                    at: node.location
                )
            }
            return Resolvable(method)
        }
    }
}

extension ArgumentType where Value == String {
    /// A file of the fixture folder, checked at load by the one fixture rule (with a suggestion).
    public static var fixture: ArgumentType {
        ArgumentType(name: "fixture file", schema: ["type": "string"]) {
            (node: StepArguments, build: StepBuildContext) throws(StepArgumentError) -> Resolvable<String> in
            let name = try ArgumentType<String>.string.readLiteral(node, build)
            try build.checkFixture(name, at: node.location)
            return Resolvable(name)
        }
    }
}

extension ArgumentType where Value == [String: AttributeValue] {
    /// A mapping of attribute names to values (`attributes`, `properties`, `where`); `${…}` in string
    /// values resolved when the step runs. The owning step checks the names against its entity.
    public static var attributes: ArgumentType {
        ArgumentType(name: "mapping of attributes to values", schema: ["type": "object"]) {
            (node: StepArguments, _: StepBuildContext) throws(StepArgumentError) -> Resolvable<[String: AttributeValue]>
            in
            guard case .mapping = node.content else {
                throw StepArgumentError(
                    "\(node.subject) takes a mapping of attributes to values, "
                        + "not \(node.kindDescription).",
                    at: node.location
                )
            }
            let values = node.value.attributeValues
            return Resolvable(values) { values, context in try values.interpolated(in: context) }
        }
    }
}
