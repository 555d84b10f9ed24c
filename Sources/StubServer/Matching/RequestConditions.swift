package import SharedValues

/// What a request must hold beyond its method and path: a route's `when:` and the matchers of
/// `expect request`, one implementation for both. Every condition given must hold.
///
/// ```swift
/// let conditions = RequestConditions(query: [("q", .equals("lunch"))], headers: [("Authorization", try .matches("^Bearer "))])
/// conditions.misses(in: request)   // ["query 'q' is 'dinner', expected 'lunch'"]
/// ```
package struct RequestConditions: Sendable, Equatable {
    /// Query parameters by name (exact, case-sensitive), in the order written.
    package var query: [(name: String, match: RequestValueMatch)]
    /// Headers by name (case-insensitive), in the order written.
    package var headers: [(name: String, match: RequestValueMatch)]
    /// The body as JSON contains this (objects as subsets, arrays element by element).
    package var json: JSONValue?
    /// The same, with arrays matched in any order and extra elements allowed (`json includes`).
    package var jsonIncludes: JSONValue?
    /// The body's text contains this.
    package var bodyContains: String?

    package init(
        query: [(name: String, match: RequestValueMatch)] = [],
        headers: [(name: String, match: RequestValueMatch)] = [],
        json: JSONValue? = nil,
        jsonIncludes: JSONValue? = nil,
        bodyContains: String? = nil
    ) {
        self.query = query
        self.headers = headers
        self.json = json
        self.jsonIncludes = jsonIncludes
        self.bodyContains = bodyContains
    }

    /// Whether there is no condition at all.
    package var isEmpty: Bool {
        query.isEmpty && headers.isEmpty && json == nil && jsonIncludes == nil && bodyContains == nil
    }

    package static func == (lhs: RequestConditions, rhs: RequestConditions) -> Bool {
        lhs.query.elementsEqual(rhs.query) { $0.name == $1.name && $0.match == $1.match }
            && lhs.headers.elementsEqual(rhs.headers) {
                $0.name.lowercased() == $1.name.lowercased() && $0.match == $1.match
            }
            && lhs.json == rhs.json && lhs.jsonIncludes == rhs.jsonIncludes && lhs.bodyContains == rhs.bodyContains
    }

    /// Whether every condition of `self` is also a condition of `other`, so that whatever `other` accepts,
    /// `self` accepts too (for shadowed-route warnings; conservative: only identical conditions count).
    func isSubset(of other: RequestConditions) -> Bool {
        query.allSatisfy { mine in other.query.contains { $0.name == mine.name && $0.match == mine.match } }
            && headers.allSatisfy { mine in
                other.headers.contains { $0.name.lowercased() == mine.name.lowercased() && $0.match == mine.match }
            }
            && (json == nil || json == other.json) && (jsonIncludes == nil || jsonIncludes == other.jsonIncludes)
            && (bodyContains == nil || bodyContains == other.bodyContains)
    }

    /// How large the regular expressions of the conditions are together (instructions), `0` with none.
    var regexSize: Int {
        (query + headers).reduce(0) { $0 + ($1.match.regex?.program.count ?? 0) }
    }

    /// At most how many steps the regular expressions could take on `request`: each one's size times the
    /// length of the values it is matched against.
    func regexSteps(for request: IncomingRequest) -> Int {
        var steps = 0
        for (name, match) in query {
            guard let size = match.regex?.program.count else { continue }
            steps += size * request.queryValues(name).reduce(1) { $0 + $1.utf8.count }
        }
        for (name, match) in headers {
            guard let size = match.regex?.program.count else { continue }
            steps += size * request.headerValues(name).reduce(1) { $0 + $1.utf8.count }
        }
        return steps
    }

    /// Whether `request` holds every condition.
    package func holds(for request: IncomingRequest) -> Bool {
        misses(in: request, all: false).isEmpty
    }

    /// Every condition `request` does not hold, in the order written (query, headers, body):
    /// `query 'page' missing, expected '2'`, `header 'Authorization' missing, expected matching /^Bearer /`,
    /// `body differs at $.message.text: "bye", expected "hi"`, `body does not contain 'hello'`.
    package func misses(in request: IncomingRequest) -> [String] {
        misses(in: request, all: true)
    }

    private func misses(in request: IncomingRequest, all: Bool) -> [String] {
        var misses: [String] = []
        for (name, match) in query {
            if let why = match.mismatch(in: request.queryValues(name), budget: &request.regexBudget) {
                misses.append("query '\(name)' \(why)")
                if !all { return misses }
            }
        }
        for (name, match) in headers {
            if let why = match.mismatch(in: request.headerValues(name), budget: &request.regexBudget) {
                misses.append("header '\(name)' \(why)")
                if !all { return misses }
            }
        }
        for (expected, arrays) in [(json, JSONArrayMatch.inOrder), (jsonIncludes, .includes)] {
            guard let expected else { continue }
            switch request.json {
            case .failure:
                let kept =
                    request.entry.isBodyTruncated ? " (only its first \(request.entry.body.count) bytes are kept)" : ""
                misses.append(request.entry.body.isEmpty ? "body is empty, expected JSON" : "body is not JSON\(kept)")
            case .success(let body):
                guard let mismatch = body.mismatch(against: expected, arrays: arrays) else { continue }
                misses.append("body differs at \(mismatch)")
            }
            if !all { return misses }
        }
        if let bodyContains, !request.entry.bodyText().contains(bodyContains) {
            misses.append("body does not contain '\(bodyContains)'")
        }
        return misses
    }
}
