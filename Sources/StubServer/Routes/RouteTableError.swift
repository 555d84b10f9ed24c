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
    case whenNotAMapping(found: String)
    case unknownWhenKey(String)
    case matchersNotAMapping(what: String, found: String)
    case matcherExpected(name: String, what: String, found: String)
    case unknownMatcher(String)
    case invalidMatcher(RequestMatchError)
    case absentNotTrue(found: String)
    case responsesNotAList(found: String)
    case responseNotAMapping(found: String)
    case unknownResponseKey(String)
    case answerBesideResponses(String)
    case unknownThen(String)
    case thenWithoutResponses
    case notABool(key: String, found: String)
    case templateWithoutFixture
    case templateSyntax(String)
    case templateName(String)
    case fixtureTemplateSyntax(fixture: String, String)
    case fixtureTemplateName(fixture: String, String)

    /// A route's own keys, then the keys of its answer (written beside them for a single answer).
    static let routeKeys =
        ["path", "method", "when", "state", "then state", "responses", "then", "contract"]
        + RouteTableParser.answerKeys

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
        case .whenNotAMapping(let found):
            return
                "Expected a mapping of request matchers under 'when' (query, headers, json, body contains), found \(found)."
        case .unknownWhenKey(let key):
            return "Unknown key '\(key)' in 'when'."
                + Suggestions.didYouMeanOrKnown(key, in: RouteTableParser.whenKeys, label: "'when' takes")
        case .matchersNotAMapping(let what, let found):
            return "Expected a mapping of \(what) names to matchers, found \(found)."
        case .matcherExpected(let name, let what, let found):
            return
                "Expected text, {matches: REGEX} or {absent: true} for \(what == "query" ? "query" : "header") '\(name)', found \(found)."
        case .unknownMatcher(let key):
            return "Unknown matcher '\(key)'."
                + Suggestions.didYouMeanOrKnown(key, in: RouteTableParser.matcherKeys, label: "Matchers are")
        case .invalidMatcher(let error):
            return error.message
        case .absentNotTrue(let found):
            return "Expected 'absent: true', found \(found); use {matches: '.'} for a value that must be sent."
        case .responsesNotAList(let found):
            return "Expected a list of answers under 'responses', found \(found)."
        case .responseNotAMapping(let found):
            return "Expected an answer mapping such as { status: 503 }, found \(found)."
        case .unknownResponseKey(let key):
            return "Unknown answer key '\(key)'."
                + Suggestions.didYouMeanOrKnown(key, in: RouteTableParser.answerKeys, label: "An answer takes")
        case .answerBesideResponses(let key):
            return "Route has both 'responses' and '\(key)'; put '\(key)' in each of the responses."
        case .unknownThen(let value):
            return
                "Unknown 'then' value '\(value)'; use 'cycle' (start the responses over) or 'repeat' (repeat the last)."
                + Suggestions.didYouMean(value, in: ["cycle", "repeat"])
        case .thenWithoutResponses:
            return "'then' applies to 'responses'; this route has none."
        case .notABool(let key, let found):
            return "Expected true or false for '\(key)', found \(found)."
        case .templateWithoutFixture:
            return
                "'template: true' applies to a 'fixture'; 'json', 'body' and header values are templates whenever they hold '{{'."
        case .templateSyntax(let reason):
            return "Invalid template: \(reason)."
        case .templateName(let problem):
            return problem
        case .fixtureTemplateSyntax(let fixture, let reason):
            return "Fixture '\(fixture)' is not a valid template: \(reason)."
        case .fixtureTemplateName(let fixture, let problem):
            return "In fixture '\(fixture)': \(problem)"
        }
    }
}
