import Diagnostics
import SharedValues

/// Everything that can be wrong in a `server.yml`, rendered to text in one place.
enum RouteTableError: Equatable {
    case notAMapping(found: String)
    case unknownTopLevelKey(String)
    case routesNotAList(found: String)
    case routeNotAMapping(found: String)
    case missingPath
    case pathNotAbsolute(found: String)
    case unknownRouteKey(String)
    case notAString(what: String, found: String)
    case statusNotAnInteger(found: String)
    case statusOutOfRange(Int)
    case delayNotANumber(found: String)
    case headersNotAMapping(found: String)
    case headerValueNotAScalar(name: String, found: String)
    case headerValueNotOneLine(name: String)
    case invalidHeaderName(String)
    case unknownFault(String)
    case unknownMethod(String)
    case conflictingContent(first: String, second: String)
    /// A `fixture:` that reaches no file, in ``FixtureFolder``'s words.
    case missingFixture(message: String)

    static let routeKeys = ["path", "method", "status", "fixture", "json", "body", "headers", "delay", "fault"]

    /// The sentence shown after `error:`.
    var message: String {
        switch self {
        case .notAMapping(let found):
            return "Expected a mapping with a 'routes' list, found \(found)."
        case .unknownTopLevelKey(let key):
            return "Unknown key '\(key)'." + Suggestions.didYouMean(key, in: ["routes"])
        case .routesNotAList(let found):
            return "Expected a list of routes, found \(found)."
        case .routeNotAMapping(let found):
            return "Expected a route mapping, found \(found)."
        case .missingPath:
            return "Route has no 'path'."
        case .pathNotAbsolute(let found):
            return "Expected a path starting with '/', found \(found)."
        case .unknownRouteKey(let key):
            return "Unknown route key '\(key)'." + Suggestions.didYouMean(key, in: Self.routeKeys)
        case .notAString(let what, let found):
            return "Expected \(what), found \(found)."
        case .statusNotAnInteger(let found):
            return "Expected an integer status, found \(found)."
        case .statusOutOfRange(let status):
            return "Status \(status) is not between 100 and 599."
        case .delayNotANumber(let found):
            return "Expected a delay in seconds from 0 to 86400 (a day), found \(found)."
        case .headersNotAMapping(let found):
            return "Expected a mapping of headers, found \(found)."
        case .headerValueNotAScalar(let name, let found):
            return "Expected a text value for header '\(name)', found \(found)."
        case .headerValueNotOneLine(let name):
            return "Header '\(name)' has a line break (CR or LF) or NUL in its value; a header value is one line."
        case .invalidHeaderName(let name):
            return "Invalid header name '\(name)'; use letters, digits and '-'."
        case .unknownFault(let fault):
            return "Unknown fault '\(fault)'."
                + Suggestions.didYouMean(fault, in: StubFault.allCases.map(\.rawValue))
        case .unknownMethod(let method):
            return "Unknown HTTP method '\(method)'."
                + Suggestions.didYouMean(method.uppercased(), in: HTTPMethod.allCases.map(\.rawValue))
        case .conflictingContent(let first, let second):
            return "Route has both '\(first)' and '\(second)'; use only one of 'fixture', 'json' and 'body'."
        case .missingFixture(let message):
            return message
        }
    }
}
