public import Diagnostics

/// The names an app knows (entities, routes, factories...), so that steps can check references at load time.
public struct Vocabulary: Sendable {
    /// Known names by kind. A kind that is absent is not checked; a kind with an empty set accepts nothing.
    public var names: [NameKind: Set<String>]
    /// Attribute names by entity. An entity that is absent is not checked.
    public var attributes: [String: Set<String>]
    /// The entity each named factory builds, so its `properties` are checked as that entity's attributes.
    public var factoryEntities: [String: String]
    /// The path pattern of each named route (`search` → `/messages/search?q=:query`), so a step that
    /// sends it can check at load time that its arguments fill every placeholder.
    public var namedRoutePatterns: [String: String]
    /// Relationship names by entity, readable as `${name.relationship}`. An entity that is absent is not checked.
    public var relationships: [String: Set<String>]

    /// Makes a vocabulary; a kind or entity left out is not checked.
    public init(
        _ names: [NameKind: Set<String>] = [:],
        attributes: [String: Set<String>] = [:],
        factoryEntities: [String: String] = [:],
        namedRoutePatterns: [String: String] = [:],
        relationships: [String: Set<String>] = [:]
    ) {
        self.relationships = relationships
        self.names = names
        self.attributes = attributes
        self.factoryEntities = factoryEntities
        self.namedRoutePatterns = namedRoutePatterns
    }

    /// Throws `Entity 'Review' has no attribute 'titel'. Did you mean 'title'?` for the first key of
    /// `arguments` (a mapping) that is not an attribute of `entity`.
    public func checkAttributes(of entity: String, in arguments: StepArguments?) throws(StepArgumentError) {
        guard let arguments, let known = attributes[entity], case .mapping(let entries) = arguments.content else {
            return
        }
        for entry in entries where !known.contains(entry.key) {
            throw StepArgumentError(
                "Entity '\(entity)' has no attribute '\(entry.key)'."
                    + Suggestions.didYouMeanOrKnown(entry.key, in: known, label: "Its attributes are"),
                at: entry.keyLocation
            )
        }
    }

    /// Throws `Unknown entity 'Reveiw'. Did you mean 'Review'?` unless `name` is known for `kind`.
    public func check(_ name: String, is kind: NameKind, at location: SourceLocation) throws(StepArgumentError) {
        guard let known = names[kind], !known.contains(name) else { return }
        throw StepArgumentError(
            "Unknown \(kind) '\(name)'." + Suggestions.didYouMeanOrKnown(name, in: known),
            at: location
        )
    }
}
