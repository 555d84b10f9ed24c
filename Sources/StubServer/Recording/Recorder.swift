import Foundation
import SharedValues

/// What `scenario-run record` (and `--record`) keeps of the exchanges it forwarded, and how it turns them
/// into fixture files and `server.yml` routes that answer the same requests the same way.
///
/// Each distinct request — method, path and query — becomes one route; the same path asked with different
/// queries gets `when: { query }` per query; a request always answered alike is written once, and one
/// answered differently becomes a `responses:` sequence in the order seen. Request headers are never
/// written; of the response's headers only those that shape how a client reads it are (``keptHeaders``),
/// never one named by ``Options/redactedHeaders``; JSON keys named by ``Options/redactedKeys`` have their
/// values replaced by `"REDACTED"`.
///
/// ```swift
/// var recorder = Recorder(options: options, existingFiles: ["restaurants.json"])
/// let line = recorder.add(exchange)          // "GET /restaurants → 200  Fixtures/restaurants-2.json"
/// let output = try recorder.output(serverText: text, table: table)
/// ```
///
/// Bounded: at most ``Limits/requests`` distinct requests, ``Limits/answersPerRequest`` answers each, and
/// ``Limits/bytes`` of bodies in all; what is beyond is answered but not recorded, and said so.
package struct Recorder: Sendable {
    /// What is recorded, and how.
    package struct Options: Sendable {
        /// Lower-cased header names never written (Authorization, Cookie, Set-Cookie and Proxy-Authorization
        /// always are among them).
        package var redactedHeaders: Set<String>
        /// JSON keys whose values are replaced in bodies.
        package var redactedKeys: Set<String>
        /// Query parameter names left out of what is written (a fixture's name, a route's `when:`).
        package var redactedQueryNames: Set<String>
        /// Whether an existing fixture file or route for the same request is replaced.
        package var overwrite: Bool
        /// The fixture folder as shown (`Fixtures`).
        package var fixturesName: String

        /// Headers never written, whatever the options say.
        package static let secretHeaders: Set<String> = [
            "authorization", "cookie", "set-cookie", "proxy-authorization",
        ]

        package init(
            redactedHeaders: [String] = [],
            redactedKeys: [String] = [],
            redactedQueryNames: [String] = [],
            overwrite: Bool = false,
            fixturesName: String = "Fixtures"
        ) {
            self.redactedHeaders = Self.secretHeaders.union(redactedHeaders.map { $0.lowercased() })
            self.redactedKeys = Set(redactedKeys)
            self.redactedQueryNames = Set(redactedQueryNames)
            self.overwrite = overwrite
            self.fixturesName = fixturesName
        }
    }

    /// How much is kept.
    package enum Limits {
        package static let requests = 10_000
        package static let answersPerRequest = 100
        package static let bytes = 256 << 20
        /// How much of a request's body is kept to match it against existing routes' `when: { json }`.
        package static let sampleBodyBytes = 64 << 10
    }

    /// The response headers written with an answer (lower-cased): how a client reads it, never when or by
    /// what it was made (Date, Server).
    package static let keptHeaders: Set<String> = [
        "content-type", "location", "cache-control", "etag", "last-modified", "link", "retry-after",
        "www-authenticate", "content-language", "content-disposition",
    ]

    /// One answer as it will be written.
    struct Answer: Equatable {
        var status: Int
        var headers: [HTTPHeader]
        var body: Data
        var contentType: String?
    }

    /// Every answer to one request (method, path, query), in order, and its fixture's base name.
    struct Request {
        var method: String
        var path: String
        var query: String?
        /// The first exchange's request, headers and the start of its body included: only to find which
        /// existing route answers it (``output(serverText:table:serverFile:source:)``), never written.
        var sample: JournalEntry
        var answers: [Answer] = []
        var name: String
        /// The fixture file of each distinct body, by the body.
        var files: [Data: String] = [:]
    }

    package let options: Options
    /// The fixture folder's file names taken before recording (never replaced without `overwrite`).
    private let existingFiles: Set<String>
    var requests: [Request] = []
    private var index: [String: Int] = [:]
    private var takenNames: Set<String> = []
    private var bytes = 0
    /// Exchanges answered but not kept, and why (the first reason).
    package private(set) var notRecorded = 0
    /// How many of each header were dropped, by its name as first seen; and of each redacted JSON key.
    package private(set) var redactedHeaderCounts: [String: Int] = [:]
    package private(set) var redactedKeyCounts: [String: Int] = [:]
    /// How many times each redacted query parameter was left out.
    package private(set) var redactedQueryCounts: [String: Int] = [:]

    package init(options: Options, existingFiles: Set<String>) {
        self.options = options
        self.existingFiles = existingFiles
    }

    /// How many distinct requests are recorded.
    package var requestCount: Int { requests.count }

    /// Records one exchange and returns its line: method, target, status and the file it is written to
    /// (or why it is not recorded).
    package mutating func add(_ forwarded: ForwardedRequest, answer: ForwardedAnswer) -> String {
        var request = forwarded
        let (kept, shown) = redactingQuery(forwarded.query)
        request.query = kept
        let label = "\(request.method) \(request.path)\(shown.map { "?" + $0 } ?? "") → \(answer.status)"
        for header in request.headers where options.redactedHeaders.contains(header.name.lowercased()) {
            redactedHeaderCounts[header.name, default: 0] += 1
        }
        let key = "\(request.method) \(request.target)"
        guard requests.count < Limits.requests || index[key] != nil else {
            notRecorded += 1
            return "\(label)  not recorded: \(Limits.requests) distinct requests are recorded at most"
        }
        let written = written(answer)
        guard bytes + written.body.count <= Limits.bytes else {
            notRecorded += 1
            return "\(label)  not recorded: \(Limits.bytes >> 20) MiB of bodies are recorded at most"
        }
        let position: Int
        if let known = index[key] {
            position = known
        } else {
            position = requests.count
            index[key] = position
            requests.append(
                Request(
                    method: request.method,
                    path: request.path,
                    query: request.query,
                    sample: JournalEntry(
                        method: request.method,
                        path: request.path,
                        query: request.query,
                        headers: request.headers,
                        // A copy: a prefix of `Data` would keep the whole forwarded body (up to 8 MiB) alive.
                        body: request.body.withUnsafeBytes { Data($0.prefix(Limits.sampleBodyBytes)) },
                        bodyLength: request.body.count
                    ),
                    name: baseName(method: request.method, path: request.path, query: request.query)
                )
            )
        }
        guard requests[position].answers.count < Limits.answersPerRequest else {
            notRecorded += 1
            return "\(label)  not recorded: \(Limits.answersPerRequest) answers to one request are recorded at most"
        }
        bytes += written.body.count
        requests[position].answers.append(written)
        let file =
            written.body.isEmpty ? "empty body" : options.fixturesName + "/" + fileName(for: written, in: position)
        return "\(label)  \(file)"
    }

    // MARK: - What is written of a request and of an answer

    /// `query` without the parameters of ``Options/redactedQueryNames`` (counted), and as it is shown: their
    /// values `REDACTED`. Either is `nil` when nothing is left.
    private mutating func redactingQuery(_ query: String?) -> (kept: String?, shown: String?) {
        let (kept, shown, redacted) = Self.splitting(query, redacting: options.redactedQueryNames)
        for name in redacted { redactedQueryCounts[name, default: 0] += 1 }
        return (kept, shown)
    }

    /// `request`'s path and query as a line shows it: the values of redacted query parameters `REDACTED`
    /// (for an exchange that is not recorded: a target that did not answer).
    package func shownTarget(of request: ForwardedRequest) -> String {
        request.path
            + (Self.splitting(request.query, redacting: options.redactedQueryNames).shown.map { "?" + $0 } ?? "")
    }

    private static func splitting(
        _ query: String?,
        redacting names: Set<String>
    ) -> (kept: String?, shown: String?, redacted: [String]) {
        guard let query, !names.isEmpty else { return (query, query, []) }
        var kept: [Substring] = []
        var shown: [String] = []
        var redacted: [String] = []
        for part in query.split(separator: "&", omittingEmptySubsequences: false) {
            let rawName = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0]
            let name = rawName.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(rawName)
            if names.contains(name) {
                redacted.append(name)
                shown.append(rawName + "=REDACTED")
            } else {
                kept.append(part)
                shown.append(String(part))
            }
        }
        return (kept.isEmpty ? nil : kept.joined(separator: "&"), shown.joined(separator: "&"), redacted)
    }

    private mutating func written(_ answer: ForwardedAnswer) -> Answer {
        var headers: [HTTPHeader] = []
        var contentType: String?
        for header in answer.headers {
            let name = header.name.lowercased()
            if options.redactedHeaders.contains(name) {
                redactedHeaderCounts[header.name, default: 0] += 1
            } else if Self.keptHeaders.contains(name), !headers.contains(where: { $0.name.lowercased() == name }) {
                headers.append(header)
                if name == "content-type" { contentType = header.value }
            }
        }
        var body = answer.body
        // JSON by its Content-Type, or by its first byte when the server said another type or none.
        let start = body.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        let looksLikeJSON =
            (contentType ?? "").lowercased().contains("json")
            || start == UInt8(ascii: "{") || start == UInt8(ascii: "[")
        if !options.redactedKeys.isEmpty, looksLikeJSON, let json = try? JSONValue(parsing: body) {
            var count = 0
            let redacted = Self.redacting(json, keys: options.redactedKeys, count: &count, counts: &redactedKeyCounts)
            if count > 0 { body = redacted.encoded(sortedKeys: true) }
        }
        return Answer(status: answer.status, headers: headers, body: body, contentType: contentType)
    }

    private static func redacting(
        _ value: JSONValue,
        keys: Set<String>,
        count: inout Int,
        counts: inout [String: Int],
        depth: Int = 0
    ) -> JSONValue {
        guard depth < 256 else { return value }
        switch value {
        case .object(let members):
            var out: [String: JSONValue] = [:]
            for (key, member) in members {
                if keys.contains(key) {
                    out[key] = .string("REDACTED")
                    count += 1
                    counts[key, default: 0] += 1
                } else {
                    out[key] = redacting(member, keys: keys, count: &count, counts: &counts, depth: depth + 1)
                }
            }
            return .object(out)
        case .array(let items):
            return .array(items.map { redacting($0, keys: keys, count: &count, counts: &counts, depth: depth + 1) })
        default:
            return value
        }
    }

    // MARK: - Names

    /// `restaurants-1-reviews`, `post-reviews`, `restaurants-page-2`, `index`: from the path's segments (and
    /// the query), letters, digits, `.`, `_` and `-` only, at most 80 characters.
    private func baseName(method: String, path: String, query: String?) -> String {
        func cleaned(_ text: String) -> String {
            let decoded = text.removingPercentEncoding ?? text
            var out = ""
            var lastDash = true
            for scalar in decoded.unicodeScalars {
                if scalar.properties.isAlphabetic && scalar.isASCII || ("0"..."9").contains(scalar) || scalar == "_"
                    || scalar == "."
                {
                    out.unicodeScalars.append(scalar)
                    lastDash = false
                } else if !lastDash {
                    out += "-"
                    lastDash = true
                }
            }
            return String(out.trimmingCharacters(in: CharacterSet(charactersIn: "-.")))
        }
        var parts: [String] = []
        if method != "GET" { parts.append(method.lowercased()) }
        let fromPath = cleaned(path)
        parts.append(fromPath.isEmpty ? "index" : fromPath)
        if let query, !cleaned(query).isEmpty { parts.append(cleaned(query)) }
        return String(parts.joined(separator: "-").prefix(80))
    }

    /// The file an answer's body is written to: one per distinct body of the request, named from the request
    /// and, after the first, numbered; never a name taken by another recorded body or (without `overwrite`)
    /// an existing file.
    private mutating func fileName(for answer: Answer, in position: Int) -> String {
        if let known = requests[position].files[answer.body] { return known }
        let ext = Self.fileExtension(for: answer.contentType)
        // `logo.png` served as image/png stays `logo.png`.
        let requested = requests[position].name
        let base = requested.hasSuffix(".\(ext)") ? String(requested.dropLast(ext.count + 1)) : requested
        var number = requests[position].files.count + 1
        var name = number == 1 ? "\(base).\(ext)" : "\(base)-\(number).\(ext)"
        while takenNames.contains(name) || (!options.overwrite && existingFiles.contains(name)) {
            number += 1
            name = "\(base)-\(number).\(ext)"
        }
        takenNames.insert(name)
        requests[position].files[answer.body] = name
        return name
    }

    /// `json`, `html`, `txt`, `xml`, … from a Content-Type; `bin` when it says nothing known.
    static func fileExtension(for contentType: String?) -> String {
        let type = (contentType ?? "").split(separator: ";").first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        guard let type, !type.isEmpty else { return "bin" }
        if type.hasSuffix("+json") || type == "application/json" { return "json" }
        if type.hasSuffix("+xml") && type != "image/svg+xml" { return "xml" }
        let preferred = ["text/plain": "txt", "text/html": "html", "application/xml": "xml", "text/xml": "xml"]
        if let ext = preferred[type] { return ext }
        return MIMEType.byExtension.sorted { $0.key < $1.key }.first { $0.value == type }?.key ?? "bin"
    }
}
