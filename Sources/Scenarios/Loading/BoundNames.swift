import Diagnostics

/// The names bound with `as:` before a step, as the loader knows them: each with the entity of its
/// object when the binding step knew it, so `${name.attribute}` is checked at load time.
struct BoundNames {
    private(set) var names: Set<String> = []
    private var entities: [String: String] = [:]

    mutating func insert(_ name: String, entity: String?) {
        names.insert(name)
        entities[name] = entity
    }

    /// What is wrong with `${name.keyPath}` for the object bound to `name`, or `nil` when nothing is
    /// known to be: the first key must be an attribute or relationship of its entity
    /// (`'team' (a Team) has no attribute or relationship 'conversationId' in '${team.conversationId}'. Did you
    /// mean 'conversationID'?`).
    func problem(with name: String, keyPath: String, reference: String, in vocabulary: Vocabulary) -> String? {
        guard !keyPath.isEmpty, let entity = entities[name], let attributes = vocabulary.attributes[entity] else {
            return nil
        }
        let key = String(keyPath.prefix { $0 != "." })
        let relationships = vocabulary.relationships[entity] ?? []
        if attributes.contains(key) || relationships.contains(key) { return nil }
        return "'\(name)' (a \(entity)) has no attribute or relationship '\(key)' in '\(reference)'."
            + Suggestions.didYouMean(key, in: attributes.union(relationships))
    }
}
