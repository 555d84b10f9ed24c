import SharedValues
import YAMLSource

/// `when:` — the request matchers of a route.
extension RouteTableParser {
    /// The keys of `when:`.
    static let whenKeys = ["query", "headers", "json", "json includes", "body contains"]
    /// The keys of a value matcher written as a mapping.
    static let matcherKeys = ["matches", "absent"]

    /// `when: {query, headers, json, json includes, body contains}`; every key optional.
    mutating func parseConditions(_ node: YAMLNode) -> RequestConditions {
        var conditions = RequestConditions()
        guard case .mapping(let mapping) = node.content else {
            report(.whenNotAMapping(found: node.summary), at: node)
            return conditions
        }
        for (keyNode, value) in mapping {
            switch keyNode.string ?? "" {
            case "query":
                conditions.query = parseValueMatchers(value, what: "query")
            case "headers":
                conditions.headers = parseValueMatchers(value, what: "headers")
                for (nameNode, _) in value.pairs ?? [] where !HTTPHeader.isToken(nameNode.string ?? "") {
                    report(.invalidHeaderName(nameNode.string ?? ""), at: nameNode)
                }
            case "json":
                conditions.json = JSONValue(yaml: value)
            case "json includes":
                conditions.jsonIncludes = JSONValue(yaml: value)
            case "body contains":
                conditions.bodyContains = string(value, what: "a text the body contains")
            default:
                report(.unknownWhenKey(keyNode.string ?? keyNode.summary), at: keyNode)
            }
        }
        return conditions
    }

    /// A mapping of names to matchers: `{ q: lunch, page: { absent: true }, Authorization: { matches: "^Bearer " } }`.
    private mutating func parseValueMatchers(_ node: YAMLNode, what: String) -> [(
        name: String, match: RequestValueMatch
    )] {
        guard case .mapping(let mapping) = node.content else {
            report(.matchersNotAMapping(what: what, found: node.summary), at: node)
            return []
        }
        var matchers: [(name: String, match: RequestValueMatch)] = []
        for (nameNode, value) in mapping {
            let name = nameNode.string ?? ""
            if let match = parseValueMatch(value, name: name, what: what) { matchers.append((name, match)) }
        }
        return matchers
    }

    /// Text (exact), `{matches: REGEX}` or `{absent: true}`.
    private mutating func parseValueMatch(_ node: YAMLNode, name: String, what: String) -> RequestValueMatch? {
        switch node.content {
        case .scalar(let text, _) where !node.isNull:
            return .equals(text)
        case .mapping(let pairs) where pairs.count == 1:
            let (keyNode, value) = pairs[0]
            switch keyNode.string {
            case "matches":
                guard let pattern = string(value, what: "a regular expression") else { return nil }
                do {
                    return try .matches(pattern)
                } catch {
                    report(.invalidMatcher(error), at: value)
                    return nil
                }
            case "absent":
                guard case .bool(true)? = value.scalarValue else {
                    report(.absentNotTrue(found: value.summary), at: value)
                    return nil
                }
                return .absent
            default:
                report(.unknownMatcher(keyNode.string ?? keyNode.summary), at: keyNode)
                return nil
            }
        default:
            report(.matcherExpected(name: name, what: what, found: node.summary), at: node)
            return nil
        }
    }
}
