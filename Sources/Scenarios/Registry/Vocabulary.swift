public import Diagnostics

/// The names an app knows (entities, routes, factories...), so that steps can check references at load time.
public struct Vocabulary: Sendable {
    /// Known names by kind. A kind that is absent is not checked; a kind with an empty set accepts nothing.
    public var names: [NameKind: Set<String>]

    public init(_ names: [NameKind: Set<String>] = [:]) {
        self.names = names
    }

    /// Throws `Unknown entity 'Reveiw'. Did you mean 'Review'?` unless `name` is known for `kind`.
    public func check(_ name: String, is kind: NameKind, at location: SourceLocation) throws(StepArgumentError) {
        guard let known = names[kind], !known.contains(name) else { return }
        throw StepArgumentError("Unknown \(kind) '\(name)'." + Suggestions.didYouMean(name, in: known), at: location)
    }
}
