import Diagnostics
import ObjectManager
import Scenarios

/// What the built-in definitions share to check their arguments.
extension BuiltInSteps {
    /// HTTP statuses a step may name.
    static let statuses = 100...599
    /// Counts a step may expect: never negative, and bounded so that no number is too large to compare.
    static let counts = 0...1_000_000

    static func noArguments(_ arguments: StepArguments) throws(StepArgumentError) {
        guard arguments.isEmpty else {
            throw StepArgumentError("Step '\(arguments.stepName)' takes no arguments.", at: arguments.location)
        }
    }

    static func method(_ arguments: StepArguments, _ key: String) throws(StepArgumentError) -> HTTPMethod {
        let text = try arguments.string(key)
        guard let method = HTTPMethod(name: text) else {
            let node = arguments[key]?.location ?? arguments.location
            throw StepArgumentError(
                "Unknown HTTP method '\(text)'."
                    + Suggestions.didYouMeanOrKnown(
                        text.uppercased(),
                        in: HTTPMethod.allCases.map(\.rawValue),
                        label: "Valid methods are"
                    ),
                at: node
            )
        }
        return method
    }

    static func reachability(_ arguments: StepArguments) throws(StepArgumentError) -> ReachabilityStatus {
        let text = try arguments.scalar()
        guard let status = ReachabilityStatus(name: text) else {
            throw StepArgumentError(
                "Unknown reachability status '\(text)'."
                    + Suggestions.didYouMeanOrKnown(
                        text,
                        in: ReachabilityStatus.allCases.map(\.rawValue),
                        label: "Valid statuses are"
                    ),
                at: arguments.location
            )
        }
        return status
    }

    static func check(_ name: String, is kind: NameKind, _ node: StepArguments?, _ build: StepBuildContext)
        throws(StepArgumentError)
    {
        guard let node else { return }
        try build.vocabulary.check(name, is: kind, at: node.location)
    }

    /// A mapping of names to scalar values (`headers:`, `parameters:`), each value as text.
    static func stringValues(_ node: StepArguments?, of key: String) throws(StepArgumentError) -> [String: String] {
        guard let node else { return [:] }
        guard case .mapping(let entries) = node.content else {
            throw StepArgumentError("'\(key)' takes a mapping of names to values.", at: node.location)
        }
        var values: [String: String] = [:]
        for entry in entries { values[entry.key] = try entry.value.scalar() }
        return values
    }
}
