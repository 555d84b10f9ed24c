import Diagnostics
import ObjectManager
package import Scenarios
package import StubServer
import YAMLSource

/// The definition of `stub request`, then its factory and what `expect request` shares with it: the stub
/// server's own request matchers (`RequestConditions`), read with the same checks as `server.yml`'s `when:`.
extension BuiltInSteps {
    static let stubbedRoute = StepArgument<ServerRoute>.required(
        "route",
        ArgumentType<ServerRoute>(
            name: "route of server.yml",
            schema: ServerRouteTable.routeSchema,
            takesStructure: true
        ) {
            (node: StepArguments, build: StepBuildContext) throws(StepArgumentError) -> Resolvable<ServerRoute> in
            guard case .mapping = node.content else {
                throw StepArgumentError(
                    "Step 'stub request' takes a route mapping, like { path: /x, status: 409 }.",
                    at: node.location
                )
            }
            switch ServerRouteTable.route(
                from: node.yamlNode,
                file: node.location.file,
                fixtures: build.fixturesDirectory
            ) {
            case .success(let route): return Resolvable(route)
            case .failure(let errors): throw StepArgumentError(errors.diagnostics.first)
            }
        },
        "A route with server.yml's keys (path, method, when, status, fixture, json, body, headers, responses, state…)"
    )

    static let stubRequest = StepDefinition(
        "stub request",
        summary: "Answers matching requests as given, before server.yml, for the rest of the scenario",
        forms: [.value(stubbedRoute)],
        example: "stub request: { path: /conversations, method: POST, status: 409, json: { error: Taken } }"
    ) { input, _ in
        .stubRequest(try input.literal(stubbedRoute))
    }

    /// Builds `expect request` from its arguments: the request matchers through the stub server's own
    /// parser (the `when:` of a route), the counts checked here (when the step runs for a count written
    /// with `${…}`).
    static func expectRequestStep(_ input: StepInput) throws(StepArgumentError) -> Step {
        // The keys, the method and the counts were checked by the definition's declaration.
        let arguments = input.arguments
        if input.has(requestCount), input.has(requestAtLeast) || input.has(requestAtMost) {
            let other =
                input.has(requestAtLeast) ? input.location(of: requestAtLeast) : input.location(of: requestAtMost)
            throw StepArgumentError("Use 'count' or 'at least'/'at most', not both.", at: other)
        }
        let count = input[requestCount]
        let atLeast = input[requestAtLeast]
        let atMost = input[requestAtMost]
        let atMostLocation = input.location(of: requestAtMost)
        /// The range of matching requests that passes, once the counts are known.
        @Sendable func range(count: Int?, atLeast: Int?, atMost: Int?) throws(StepArgumentError) -> ClosedRange<Int> {
            if let atLeast, let atMost, atLeast > atMost {
                throw StepArgumentError("'at most' (\(atMost)) is below 'at least' (\(atLeast)).", at: atMostLocation)
            }
            return count.map { $0...$0 } ?? (atLeast ?? (atMost == nil ? 1 : 0))...(atMost ?? Int.max)
        }
        let times: Resolvable<ClosedRange<Int>>
        if let count = count.literal, let atLeast = atLeast.literal, let atMost = atMost.literal {
            times = Resolvable(try range(count: count, atLeast: atLeast, atMost: atMost))
        } else {
            let written = [count.part("count"), atLeast.part("at least"), atMost.part("at most")]
            times = Resolvable(written: written.compactMap { $0 }.joined(separator: " ")) { context in
                try range(
                    count: count.resolve(in: context),
                    atLeast: atLeast.resolve(in: context),
                    atMost: atMost.resolve(in: context)
                )
            }
        }
        var matchers = arguments
        if case .mapping(let entries) = arguments.content {
            matchers.content = .mapping(entries.filter { ServerRouteTable.conditionKeys.contains($0.key) })
        }
        let conditions: RequestConditions
        switch ServerRouteTable.conditions(from: matchers.yamlNode, file: arguments.location.file) {
        case .success(let parsed): conditions = parsed
        case .failure(let errors): throw StepArgumentError(errors.diagnostics.first)
        }
        return .expectRequest(
            method: try input.literal(requestMethod)?.rawValue,
            path: input.written(requestPath),
            conditions: conditions,
            times: times
        )
    }
}

extension Step {
    /// Adds `route` before every other route of the stub server for the rest of the scenario; tear-down
    /// removes it (one left behind is a leak).
    package static func stubRequest(_ route: ServerRoute) -> Step {
        Step("stub request \(route.summary)") { context in
            try context.world.environment.server.session.addStub(route)
            return .success
        }
    }

    /// Passes when the stub server's journal holds a number of requests in `times` that have that method
    /// (any when `nil`), that raw path (`/search?q=lunch` also requires the query's values) and hold
    /// `conditions` — the matchers of a route's `when:`. `${name}` references are resolved in the path,
    /// exact values, JSON and `body contains`. A miss lists what the server saw, nearest first, each with
    /// why it did not match.
    package static func expectRequest(
        method: String? = nil,
        path: String? = nil,
        conditions: RequestConditions,
        times: ClosedRange<Int> = 1...Int.max
    ) -> Step {
        expectRequest(method: method, path: path, conditions: conditions, times: Resolvable(times))
    }

    /// ``expectRequest(method:path:conditions:times:)`` with counts that may be written with `${…}`:
    /// converted when the step runs, as an app step's arguments are.
    package static func expectRequest(
        method: String?,
        path: String?,
        conditions: RequestConditions,
        times: Resolvable<ClosedRange<Int>>
    ) -> Step {
        var parts: [String] = []
        if let method { parts.append(method.uppercased()) }
        if let path { parts.append(path) }
        parts += conditions.query.map { "query \($0.name) \($0.match)" }
        parts += conditions.headers.map { "header \($0.name) \($0.match)" }
        if let json = conditions.json { parts.append("json \(json)") }
        if let json = conditions.jsonIncludes { parts.append("json includes \(json)") }
        if let text = conditions.bodyContains { parts.append("body contains '\(text)'") }
        if times.literal != 1...Int.max { parts.append(times.described(RequestExpectation.describe)) }
        return Step("expect request " + parts.joined(separator: " ")) { context in
            let times = try times.resolve(in: context)
            let expectation = RequestExpectation(
                method: method,
                path: try path.map { try context.interpolate($0) },
                conditions: try conditions.interpolated(in: context),
                times: times
            )
            let world = try context.world
            let journal = world.environment.server.journal
            guard times.upperBound != Int.max else { return expectation.verdict(on: journal) }
            // A count with an upper bound (`count: 0`, `at most:`) could still be broken by a request under
            // way: it passes only when the app is idle, as Espresso waits for its idling resources before a
            // check. The quiet is read before the journal, so that a request ending between the two reads
            // is counted, not missed; while the app is busy a count already broken stands.
            let quiet = world.judgedWhenIdle()
            let verdict = expectation.verdict(on: journal)
            if case .success = verdict, case .wait = quiet {
                world.retryWhenIdle(context)
                return quiet
            }
            return verdict
        }.returningPromptly().givingUpWhenSettled()
    }
}

/// What `expect request` checks against the journal, once its `${name}` references are resolved.
struct RequestExpectation {
    var method: String?
    var path: String?
    var conditions: RequestConditions
    var times: ClosedRange<Int>

    init(method: String?, path: String?, conditions: RequestConditions, times: ClosedRange<Int>) {
        self.method = method?.uppercased()
        self.conditions = conditions
        self.times = times
        // `/search?q=lunch`: the query's values are conditions too.
        guard let path else { return }
        let (bare, query) = RequestPath.split(target: path)
        self.path = bare
        self.conditions.query += IncomingRequest.pairs(of: query).map { ($0.name, .equals($0.value)) }
    }

    /// Why `entry` does not match (empty when it does): method, path, then each condition.
    func misses(_ request: IncomingRequest) -> [String] {
        var misses: [String] = []
        if let method, request.entry.method != method { misses.append("method differs") }
        if let path, request.entry.path != path { misses.append("path differs") }
        return misses + conditions.misses(in: request)
    }

    /// Whether `request` matches: method and path first, then the conditions until one fails.
    func matches(_ request: IncomingRequest) -> Bool {
        (method == nil || request.entry.method == method) && (path == nil || request.entry.path == path)
            && conditions.holds(for: request)
    }

    /// ``verdict(on:)-([JournalEntry])`` on the journal's entries; a count the journal cannot prove
    /// because it forgot requests since the scenario began (past its limits) fails, saying so.
    func verdict(on journal: RequestJournal) -> StepResult {
        let (entries, dropped) = journal.entriesAndDropped
        let result = verdict(on: entries)
        guard dropped > 0 else { return result }
        let matching = entries.lazy.map(IncomingRequest.init).filter(matches).count
        // Only "at least N" with N kept matches is proven; every other answer could change with what was
        // forgotten.
        if times.upperBound == Int.max, matching >= times.lowerBound { return result }
        let limits = journal.limits
        return .failure(
            "Cannot check \(Self.describe(times)): the stub server's journal forgot \(dropped.groupedDigits) of this scenario's requests (it keeps the newest \(limits.entries.groupedDigits) within \(limits.bytes >> 20) MiB); check fewer requests per scenario, or use 'at least'."
        )
    }

    /// Success when the number of matching entries is in `times`; else a wait naming what the server saw
    /// (every reason of every entry is worked out only then).
    func verdict(on entries: [JournalEntry]) -> StepResult {
        let requests = entries.map(IncomingRequest.init)
        let matching = requests.filter(matches).count
        if times.contains(matching) { return .success }
        let misses = requests.map(misses)
        // Nearest first: fewest reasons, method and path weighing most; equally near in arrival order.
        let ranked = zip(requests, misses).enumerated().sorted { lhs, rhs in
            (Self.weight(lhs.element.1), lhs.offset) < (Self.weight(rhs.element.1), rhs.offset)
        }
        let shown = ranked.prefix(10).map { _, pair in
            let (request, why) = pair
            let truncated =
                request.entry.isBodyTruncated ? "body of \(request.entry.bodyLength) bytes, only its start kept" : nil
            let notes = why + (truncated.map { [$0] } ?? [])
            return "\(request.entry.method) \(request.target)"
                + (notes.isEmpty ? "" : " (\(notes.joined(separator: ", ")))")
        }
        let more = entries.count > 10 ? ", and \(entries.count - 10) more" : ""
        let seen = "the server saw (nearest first): [\(shown.joined(separator: "; "))\(more)]"
        if matching == 0, times.lowerBound > 0 {
            return .wait("No matching request; " + seen)
        }
        return .wait("\(matching) matching request(s), expected \(Self.describe(times)); " + seen)
    }

    private static func weight(_ misses: [String]) -> Int {
        misses.reduce(0) { $0 + ($1 == "path differs" ? 100 : $1 == "method differs" ? 50 : 1) }
    }

    /// `count 2`, `at least 1`, `at most 3`, `2 to 5`.
    static func describe(_ times: ClosedRange<Int>) -> String {
        switch (times.lowerBound, times.upperBound) {
        case let (low, high) where low == high: "count \(low)"
        case (let low, Int.max): "at least \(low)"
        case (0, let high): "at most \(high)"
        case let (low, high): "\(low) to \(high)"
        }
    }
}

extension RequestConditions {
    /// The conditions with `${name}` references resolved in exact values, JSON and `body contains`.
    func interpolated(in context: ScenarioContext) throws -> RequestConditions {
        func resolved(_ pairs: [(name: String, match: RequestValueMatch)]) throws -> [(
            name: String, match: RequestValueMatch
        )] {
            try pairs.map { name, match in
                guard case .equals(let text) = match.kind else { return (name, match) }
                return (name, .equals(try context.interpolate(text)))
            }
        }
        return RequestConditions(
            query: try resolved(query),
            headers: try resolved(headers),
            json: try json?.interpolated(in: context),
            jsonIncludes: try jsonIncludes?.interpolated(in: context),
            bodyContains: try bodyContains.map { try context.interpolate($0) }
        )
    }
}

extension StepArgumentError {
    /// The first error of the stub server's parser, at its place in the scenario file.
    init(_ diagnostic: Diagnostic?) {
        self.init(
            diagnostic?.message ?? "Invalid arguments.",
            at: diagnostic?.location ?? SourceLocation(file: "", line: 1, column: 1)
        )
    }
}

extension StepArguments {
    /// The arguments as the YAML node they were read from, for the stub server's own parser.
    var yamlNode: YAMLNode {
        let content: YAMLNode.Content
        switch self.content {
        case .none: content = .scalar("", isPlain: true)
        case .scalar(let text, let isPlain): content = .scalar(text, isPlain: isPlain)
        case .sequence(let items): content = .sequence(items.map(\.yamlNode))
        case .mapping(let entries):
            content = .mapping(
                entries.map { entry in
                    let key = YAMLNode(
                        content: .scalar(entry.key, isPlain: true),
                        line: entry.keyLocation.line,
                        column: entry.keyLocation.column
                    )
                    return (key: key, value: entry.value.yamlNode)
                }
            )
        }
        return YAMLNode(content: content, line: location.line, column: location.column)
    }
}
