import Foundation
package import ObjectManager
package import Scenarios
import StubServer
import Synchronization

/// The definitions of the steps that expect and wait, whose bodies follow.
extension BuiltInSteps {
    static let responseStatus = StepArgument<Int?>.optional("status", .integer(in: statuses), "The HTTP status")
    static let responseJSON = StepArgument<JSONValue?>.optional(
        "json",
        .json,
        "The body contains it: objects as subsets, arrays element by element"
    )
    static let responseJSONIncludes = StepArgument<JSONValue?>.optional(
        "json includes",
        .json,
        "As json, but arrays in any order with extra elements allowed"
    )
    static let responseBodyContains = StepArgument<String?>.optional("body contains", .string, "Text in the body")
    static let responseError = StepArgument<String?>.optional("error", .string, "Text in the request's error message")

    static let expectResponse = StepDefinition(
        "expect response",
        summary: "Passes when the last request has completed and matches",
        forms: [
            .mapping(
                responseStatus.any,
                responseJSON.any,
                responseJSONIncludes.any,
                responseBodyContains.any,
                responseError.any
            )
        ],
        example: "expect response: { status: 422, error: Invalid object. }"
    ) { input, _ in
        .expectResponse(
            status: input[responseStatus],
            json: input.written(responseJSON),
            jsonIncludes: input.written(responseJSONIncludes),
            bodyContains: input.written(responseBodyContains),
            error: input.written(responseError)
        )
    }

    static let expectedEntity = StepArgument<String>.required("entity", .entity, "The entity")
    static let expectedCount = StepArgument<Int?>.optional(
        "count",
        .integer(in: counts),
        "How many (at least one when left out)"
    )
    static let expectedWhere = StepArgument<[String: AttributeValue]?>.optional(
        "where",
        .attributes,
        "Attribute values the objects have"
    )

    static let expectEntities = StepDefinition(
        "expect entities",
        summary: "Passes when the store holds that many matching objects",
        forms: [.mapping(expectedEntity.any, expectedCount.any, expectedWhere.any)],
        example: "expect entities: { entity: Review, count: 1, where: { title: Lovely } }"
    ) { input, build in
        let entity = try input.literal(expectedEntity)
        try build.vocabulary.checkAttributes(of: entity, in: input.node(of: expectedWhere))
        return .expectEntities(
            entity,
            count: input[expectedCount],
            where: input.written(expectedWhere) ?? [:]
        )
    }

    static let pendingCount = StepArgument<Int>.required("count", .integer(in: counts), "Requests queued or in flight")

    static let expectPendingRequests = StepDefinition(
        "expect pending requests",
        summary: "Passes when N requests are queued or in flight",
        forms: [.value(pendingCount)],
        example: "expect pending requests: 1"
    ) { input, _ in
        .expectPendingRequests(input[pendingCount])
    }

    static let cachedPath = StepArgument<String>.required("path", .string, "The URL's path, relative to the base URL")
    static let cachedMethod = StepArgument<HTTPMethod>.optional(
        "method",
        .method,
        default: .get,
        "The request's method"
    )

    static let expectCachedResponse = StepDefinition(
        "expect cached response",
        summary: "Passes when the cache holds a response for that URL",
        forms: [.mapping(cachedPath.any, cachedMethod.any)],
        example: "expect cached response: { path: /restaurants }"
    ) { input, _ in
        .expectCachedResponse(path: try input.asWritten(cachedPath), method: try input.literal(cachedMethod))
    }

    static let requestMethod = StepArgument<HTTPMethod?>.optional("method", .method, "The request's method")
    static let requestPath = StepArgument<String?>.optional("path", .string, "The request's path")
    static let requestCount = StepArgument<Int?>.optional(
        "count",
        .integer(in: counts),
        "How many such requests (at least one when left out)"
    )
    static let requestAtLeast = StepArgument<Int?>.optional("at least", .integer(in: counts), "At least this many")
    static let requestAtMost = StepArgument<Int?>.optional("at most", .integer(in: counts), "At most this many")
    static let requestQuery = StepArgument<JSONValue?>.optional(
        "query",
        .json,
        "Query parameters: each exact text, { matches: REGEX } or { absent: true }"
    )
    static let requestHeaders = StepArgument<JSONValue?>.optional(
        "headers",
        .json,
        "Request headers: each exact text, { matches: REGEX } or { absent: true }"
    )
    static let requestBodyContains = StepArgument<String?>.optional("body contains", .string, "Text in the body")

    static let expectRequest = StepDefinition(
        "expect request",
        summary: "Passes when the stub server's journal holds matching requests",
        forms: [
            .mapping(
                requestMethod.any,
                requestPath.any,
                requestQuery.any,
                requestHeaders.any,
                responseJSON.any,
                responseJSONIncludes.any,
                requestBodyContains.any,
                requestCount.any,
                requestAtLeast.any,
                requestAtMost.any
            )
        ],
        example: "expect request: { method: POST, path: /review, count: 1, json: { review: { title: Lovely } } }"
    ) { input, _ in
        // The matchers are the stub server's own (a route's `when:`), read by its parser.
        try expectRequestStep(input)
    }

    static let expectReachability = StepDefinition(
        "expect reachability",
        summary: "Passes when the HTTP client reports that status",
        forms: [.value(reachabilityStatus)],
        example: "expect reachability: reachable via wifi"
    ) { input, _ in
        .expectReachability(try input.literal(reachabilityStatus))
    }

    static let notificationName = StepArgument<String>.required(
        "name",
        .string,
        "The notification's name; 'reachability changed' names the object manager's"
    )

    static let waitForNotification = StepDefinition(
        "wait for notification",
        summary: "Passes once the notification is posted (during the previous step or this one)",
        forms: [.value(notificationName)],
        example: "wait for notification: reachability changed"
    ) { input, _ in
        .waitForNotification(named: try input.asWritten(notificationName))
    }

    static let waitForRequests = StepDefinition(
        "wait for requests",
        summary: "Passes when the queue is empty and nothing is in flight"
    ) { _, _ in .waitForRequests() }
}

extension Step {
    /// Passes when the last request has completed and matches every given expectation:
    /// `status`, `json` (the body contains it: objects as subsets, arrays element by element),
    /// `jsonIncludes` (the same, but arrays in any order with extra elements allowed), `bodyContains`
    /// (text), `error` (the error message contains it). A JSON mismatch names its first difference
    /// (`$.messages: 3 elements, expected 2`).
    package static func expectResponse(
        status: Int? = nil,
        json: JSONValue? = nil,
        jsonIncludes: JSONValue? = nil,
        bodyContains: String? = nil,
        error: String? = nil
    ) -> Step {
        expectResponse(
            status: Resolvable(status),
            json: json,
            jsonIncludes: jsonIncludes,
            bodyContains: bodyContains,
            error: error
        )
    }

    /// ``expectResponse(status:json:jsonIncludes:bodyContains:error:)`` with a status that may be written
    /// with `${…}`: converted when the step runs, as an app step's argument is.
    package static func expectResponse(
        status: Resolvable<Int?>,
        json: JSONValue?,
        jsonIncludes: JSONValue?,
        bodyContains: String?,
        error: String?
    ) -> Step {
        var parts: [String] = []
        if let status = status.part("status") { parts.append(status) }
        if let json { parts.append("json \(json)") }
        if let jsonIncludes { parts.append("json includes \(jsonIncludes)") }
        if let bodyContains { parts.append("body contains '\(bodyContains)'") }
        if let error { parts.append("error '\(error)'") }
        return Step("expect response " + parts.joined(separator: ", ")) { context in
            let world = try context.world
            if world.runningCount > 0 {
                // Nothing to read until they end.
                context.retry { [weak world] in (world?.runningCount ?? 0) == 0 }
                return .wait("\(world.runningCount) request(s) still running")
            }
            // The request sent last, not the one that finished last (a slow 200 sent before a fast 404).
            guard let lastRecord = world.manager.lastSentRecord else {
                return .wait(
                    world.manager.lastRecord == nil
                        ? "No request has completed yet" : "The last request sent has not finished yet"
                )
            }
            let record = ResponseFacts(lastRecord)
            if let status = try status.resolve(in: context), record.status != status {
                return .wait(
                    "The last response (\(record.text)) has status \(record.status.map(String.init) ?? "none"), expected \(status)"
                )
            }
            let body = record.body
            for (expected, arrays) in [(json, JSONArrayMatch.inOrder), (jsonIncludes, .includes)] {
                guard let expected else { continue }
                let wanted = try expected.interpolated(in: context)
                guard let actual = try? JSONValue(parsingBody: body) else {
                    return .wait(
                        "The last response's body is not JSON: '\(String(decoding: body.prefix(200), as: UTF8.self))'"
                    )
                }
                if let mismatch = actual.mismatch(against: wanted, arrays: arrays) {
                    return .wait("The last response's JSON differs at \(mismatch)")
                }
            }
            if let bodyContains {
                let text = try context.interpolate(bodyContains)
                if !String(decoding: body, as: UTF8.self).contains(text) {
                    return .wait("The last response's body does not contain '\(text)'")
                }
            }
            if let error {
                let text = try context.interpolate(error)
                guard let message = record.errorDescription else {
                    return .wait("The last request (\(record.text)) did not fail")
                }
                if !message.contains(text) {
                    return .wait(
                        "The last request failed with '\(message)', expected '\(text)'"
                    )
                }
            }
            return .success
        }.returningPromptly().givingUpWhenSettled()
    }

    /// Passes when the store holds `count` objects of `entity` matching `where` (any count ≥ 1 when nil).
    package static func expectEntities(_ entity: String, count: Int?, where conditions: [String: AttributeValue] = [:])
        -> Step
    {
        expectEntities(entity, count: Resolvable(count), where: conditions)
    }

    /// ``expectEntities(_:count:where:)`` with a count that may be written with `${…}`: converted when the
    /// step runs, as an app step's argument is.
    package static func expectEntities(
        _ entity: String,
        count: Resolvable<Int?>,
        where conditions: [String: AttributeValue]
    ) -> Step {
        let filter =
            conditions.isEmpty
            ? ""
            : " where "
                + conditions.sorted { $0.key < $1.key }.map { "\($0.key) = \($0.value)" }.joined(separator: ", ")
        return Step("expect entities \(entity)" + (count.part("count").map { " " + $0 } ?? "") + filter) { context in
            let count = try count.resolve(in: context)
            let world = try context.world
            guard let store = world.manager.store else { throw StepError.noStore }
            // An exact count (0 included) could still be broken by work under way: it is judged when the
            // app is idle, and while it is not there is nothing to count yet (no fetch on every retry).
            if count != nil, case .wait(let busy) = world.judgedWhenIdle(retryingIn: context) { return .wait(busy) }
            if let count, conditions.isEmpty {
                // Only a count: the store counts its rows, no object is made.
                let found = try store.mainContext.count(entity)
                return found == count ? .success : .wait("\(found) \(entity) object(s), expected \(count)")
            }
            let conditions = try conditions.interpolated(in: context)
            let description = try store.mainContext.entity(named: entity)
            let matching = try store.mainContext.fetch(entity).filter { object in
                conditions.allSatisfy { key, value in
                    guard let attribute = description.attribute(named: key) else { return false }
                    return object[key].matches(value, as: attribute.type)
                }
            }
            if let unknown = conditions.keys.sorted().first(where: { description.attribute(named: $0) == nil }) {
                return .failure("Entity '\(entity)' has no attribute '\(unknown)'.")
            }
            if let count {
                guard matching.count == count else {
                    return .wait("\(matching.count) \(entity) object(s)\(filter), expected \(count)")
                }
                return .success
            }
            return matching.isEmpty ? .wait("No \(entity) object\(filter)") : .success
        }.returningPromptly().givingUpWhenSettled()
    }

    /// Passes when `count` requests are queued or in flight.
    package static func expectPendingRequests(_ count: Int) -> Step {
        expectPendingRequests(Resolvable(count))
    }

    /// ``expectPendingRequests(_:)`` with a count that may be written with `${…}`: converted when the step
    /// runs, as an app step's argument is.
    package static func expectPendingRequests(_ count: Resolvable<Int>) -> Step {
        Step("expect pending requests \(count.described(String.init))") { context in
            let count = try count.resolve(in: context)
            let queue = try context.objectManager.queue
            let pending = queue.count
            return pending == count ? .success : .wait("\(pending) request(s) queued or in flight, expected \(count)")
        }.returningPromptly()
    }

    /// Passes when the response cache holds a response for the URL of `path`.
    package static func expectCachedResponse(path: String, method: HTTPMethod = .get) -> Step {
        Step("expect cached response \(method) \(path)") { context in
            let world = try context.world
            let manager = world.manager
            let url = manager.router.url(forPath: try context.interpolate(path))
            return manager.cache.cachedResponse(for: method, url: url) != nil
                ? .success
                : .wait(
                    "No cached response for \(method) \(url.path) (\(manager.cache.count) cached)"
                )
        }.returningPromptly().givingUpWhenSettled()
    }

    /// Passes when the stub server's journal holds matching requests (`count` exactly, or at least one);
    /// `json` and `jsonIncludes` match the request body as ``expectResponse(status:json:jsonIncludes:bodyContains:error:)``
    /// does. The matchers of ``expectRequest(method:path:conditions:times:)`` with just these.
    package static func expectRequest(
        method: String? = nil,
        path: String? = nil,
        count: Int? = nil,
        json: JSONValue? = nil,
        jsonIncludes: JSONValue? = nil
    ) -> Step {
        expectRequest(
            method: method,
            path: path,
            conditions: RequestConditions(json: json, jsonIncludes: jsonIncludes),
            times: count.map { $0...$0 } ?? 1...Int.max
        )
    }

    /// Passes when the HTTP client reports `status`.
    package static func expectReachability(_ status: ReachabilityStatus) -> Step {
        Step("expect reachability \(status)") { context in
            let actual = try context.objectManager.client.reachabilityStatus
            return actual == status ? .success : .wait("Reachability is '\(actual)', expected '\(status)'")
        }.returningPromptly()
    }

    /// Passes once the notification is posted during the previous step or this one, so one that an
    /// earlier step's work posts quickly is not missed (`reachability changed` names the object
    /// manager's reachability notification).
    package static func waitForNotification(named name: String) -> Step {
        let notificationName = Notification.Name(NotificationNames.resolve(name))
        return Step("wait for notification \(name)") { context in
            let world = try context.world
            return world.wasPosted(notificationName, sinceStep: context.stepSerial - 1)
                ? .success : .wait("Notification '\(name)' has not been posted since the previous step began")
        }.returningPromptly()
    }

    /// Passes when the queue is empty, nothing is in flight and no step's background work is running.
    package static func waitForRequests() -> Step {
        Step("wait for requests") { context in
            let world = try context.world
            let count = world.manager.queue.count
            if count > 0 {
                return .wait(
                    "\(count) request(s) queued or in flight"
                        + (world.manager.queue.isSuspended ? " (the queue is suspended)" : "")
                )
            }
            return world.runningCount == 0
                ? .success : .wait("\(world.runningCount) background action(s) still running")
        }.returningPromptly()
    }
}

/// Friendly names for the notifications scenario files wait for.
enum NotificationNames {
    static let aliases: [String: String] = [
        "reachability changed": Notification.Name.reachabilityDidChange.rawValue,
        "reachability did change": Notification.Name.reachabilityDidChange.rawValue,
    ]

    static func resolve(_ name: String) -> String {
        aliases[name.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")] ?? name
    }
}

/// The parts of a request record `expect response` checks, copied out in a function the optimizer
/// does not inline (works around a Swift 6.3.1 -O crash in CopyPropagation on the closure: reading them
/// through the record there crashes it still). The record is kept for its text, made only for a message.
struct ResponseFacts {
    let status: Int?
    let body: Data
    let errorDescription: String?
    private let record: RequestRecord

    @inline(never)
    init(_ record: RequestRecord) {
        status = record.status
        body = record.response?.body ?? Data()
        errorDescription = record.errorDescription
        self.record = record
    }

    /// The record as the scenario's log writes it (`POST /review → 201 (1 object)`), made only for a message.
    var text: String { record.description }
}

extension Resolvable {
    /// `KEY VALUE` for a step's description, the value as written (`count ${n}`); `nil` for an optional
    /// argument left out. The value's text through its own `description`: the text of an unconstrained
    /// generic value asks the runtime which text protocols its type conforms to, a walk over every
    /// conformance record of the program the first time, in every worker.
    func part<Wrapped: CustomStringConvertible>(_ key: String) -> String? where Value == Wrapped? {
        if case .some(.none) = literal { return nil }
        return key + " " + described { $0?.description ?? "" }
    }
}
