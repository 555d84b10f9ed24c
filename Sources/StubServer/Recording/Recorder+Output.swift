import Diagnostics
package import Foundation
import SharedValues

extension Recorder {
    /// What a recording writes: fixture files, and `server.yml` with the new routes appended after the
    /// existing ones (its comments and order kept; with `overwrite`, a route answering the same request
    /// taken out first).
    package struct Output: Sendable {
        /// File names in the fixture folder, and their contents.
        package var files: [(name: String, data: Data)] = []
        /// The whole new text of `server.yml`.
        package var serverText = ""
        /// How many routes were added.
        package var added = 0
        /// The existing routes taken out for new ones (`Fixtures/server.yml:12`).
        package var replaced: [String] = []
        /// Requests not written because an existing route answers them, each said with that route.
        package var kept: [String] = []
    }

    /// Why a recording cannot be written into `server.yml`.
    package struct OutputError: Error, CustomStringConvertible {
        package var description: String
    }

    /// The files and `server.yml` text for everything recorded; `serverText` and `table` are the file as it
    /// is (`nil` when there is none yet), `source` says where the answers came from (a comment above them).
    package func output(
        serverText: String?,
        table: ServerRouteTable?,
        serverFile: String,
        source: String
    ) throws(OutputError) -> Output {
        var output = Output()
        var removedLines: [Int] = []
        var routeTexts: [String] = []
        let existing = (table?.routes ?? []).filter { $0.location?.file == serverFile }
        var groups: [(key: String, members: [Request])] = []
        var groupIndex: [String: Int] = [:]
        for request in requests {
            let key = "\(request.method) \(request.path)"
            if let known = groupIndex[key] {
                groups[known].members.append(request)
            } else {
                groupIndex[key] = groups.count
                groups.append((key, [request]))
            }
        }
        var removed: Set<Int> = []
        for (_, group) in groups {
            var members: [Request] = []
            for request in group {
                // Every existing route that would answer it, `when:` looked at, in the scenario's first state.
                let answering = table.map { Self.routes(answering: request.sample, in: $0) } ?? []
                guard let first = answering.first?.location else {
                    members.append(request)
                    continue
                }
                let label = "\(request.method) \(request.path)" + (request.query.map { "?" + $0 } ?? "")
                guard options.overwrite else {
                    output.kept.append(
                        "\(label): \(first.file):\(first.line) already answers it (--overwrite replaces it)"
                    )
                    continue
                }
                // All of them go, so that the recorded route, written after them, is the one that answers.
                let elsewhere = answering.compactMap(\.location).first { $0.file != serverFile }
                if let elsewhere {
                    output.kept.append("\(label): \(elsewhere.file):\(elsewhere.line) answers it, in another file")
                    continue
                }
                for location in answering.compactMap(\.location) where removed.insert(location.line).inserted {
                    removedLines.append(location.line)
                    output.replaced.append("\(location.file):\(location.line)")
                }
                members.append(request)
            }
            guard !members.isEmpty else { continue }
            // The same path asked with different queries: a route per query, the most specific first.
            let ordered =
                members.count == 1
                ? members
                : members.enumerated().sorted { left, right in
                    let (l, r) = (Self.queryItems(left.element.query).count, Self.queryItems(right.element.query).count)
                    return l != r ? l > r : left.offset < right.offset
                }.map(\.element)
            for request in ordered {
                routeTexts.append(route(for: request, withQuery: group.count > 1))
                output.added += 1
                for (data, name) in request.files { output.files.append((name, data)) }
            }
        }
        output.files.sort { $0.name < $1.name }
        output.serverText = try Self.text(
            serverText ?? "",
            removing: removedLines,
            routeLines: existing.compactMap { $0.location?.line }.sorted(),
            indent: existing.first?.location.map { max(0, $0.column - 3) } ?? 2,
            appending: routeTexts,
            source: source
        )
        do {
            _ = try ServerRouteTable.parse(yaml: output.serverText, file: serverFile)
        } catch {
            throw OutputError(
                description: "The recorded routes would not load (\(error.diagnostics.first?.message ?? "\(error)")); "
                    + "nothing was written."
            )
        }
        return output
    }

    /// The routes of `table` that answer `request` in the scenario's first state, in order: method, path and
    /// every condition of `when:` (a route that needs another `state:` does not answer a recording's replay
    /// from its start).
    static func routes(answering request: JournalEntry, in table: ServerRouteTable) -> [ServerRoute] {
        guard let segments = RequestPath.decodedSegments(of: request.path) else { return [] }
        let incoming = IncomingRequest(request)
        return table.routes.filter { route in
            route.accepts(method: request.method)
                && (route.state == nil || route.state == StubSession.initialState)
                && route.path.match(segments: segments) != nil
                && route.conditions.holds(for: incoming)
        }
    }

    // MARK: - One route

    /// The route answering `request` as recorded, as lines of YAML (indented by two, for the list item).
    private func route(for request: Request, withQuery: Bool) -> String {
        var lines = ["- path: \(Self.quoted(request.path))", "  method: \(request.method)"]
        let items = Self.queryItems(request.query)
        if withQuery, !items.isEmpty {
            let pairs = items.map { "\(Self.quoted($0.name)): \(Self.quoted($0.value))" }
            lines.append("  when: { query: { \(pairs.joined(separator: ", ")) } }")
        }
        let answers = request.answers
        if answers.allSatisfy({ $0 == answers[0] }) {
            lines += answer(answers[0], of: request).map { "  \($0)" }
        } else {
            lines.append("  responses:")
            for answer in answers {
                lines.append("    - { " + self.answer(answer, of: request).joined(separator: ", ") + " }")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// `status: 201`, `fixture: "…"` or `body: ""`, `headers: { … }`.
    private func answer(_ answer: Answer, of request: Request) -> [String] {
        var fields = ["status: \(answer.status)"]
        if answer.body.isEmpty {
            fields.append(#"body: """#)
        } else if let name = request.files[answer.body] {
            fields.append("fixture: \(Self.quoted(name))")
        }
        if !answer.headers.isEmpty {
            let pairs = answer.headers.map { "\(Self.quoted($0.name)): \(Self.quoted($0.value))" }
            fields.append("headers: { \(pairs.joined(separator: ", ")) }")
        }
        return fields
    }

    /// A query's items, percent-decoded (`page=2&q=a%20b` → page 2, q "a b"); the first value of a repeated
    /// name.
    static func queryItems(_ query: String?) -> [(name: String, value: String)] {
        guard let query, !query.isEmpty else { return [] }
        var seen: Set<String> = []
        var items: [(name: String, value: String)] = []
        for item in URLComponents(string: "?" + query)?.queryItems ?? [] where seen.insert(item.name).inserted {
            items.append((item.name, item.value ?? ""))
        }
        return items
    }

    /// A YAML double-quoted scalar.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value)
                    || scalar.value == 0x2028 || scalar.value == 0x2029 || scalar.value == 0xFEFF
                {
                    out += String(format: "\\u%04X", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    // MARK: - The file's text

    /// `text` without the routes starting at `removing` (each up to the next route, less the comments and
    /// blank lines above that one), with `routes` appended to its routes list.
    private static func text(
        _ text: String,
        removing: [Int],
        routeLines: [Int],
        indent: Int,
        appending routes: [String],
        source: String
    ) throws(OutputError) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        var drop = IndexSet()
        for start in removing {
            guard lines.indices.contains(start - 1),
                lines[start - 1].trimmingCharacters(in: .whitespaces).hasPrefix("-")
            else {
                throw OutputError(
                    description: "The route at line \(start) does not start its own line ('- …'), so it cannot be "
                        + "replaced; take it out by hand, or record without --overwrite."
                )
            }
            var end = (routeLines.first { $0 > start } ?? lines.count + 1) - 1
            while end > start {
                let line = lines[end - 1].trimmingCharacters(in: .whitespaces)
                guard line.isEmpty || line.hasPrefix("#") else { break }
                end -= 1
            }
            drop.insert(integersIn: (start - 1)..<end)
        }
        lines = lines.enumerated().filter { !drop.contains($0.offset) }.map(\.element)
        guard !routes.isEmpty else { return lines.joined(separator: "\n") + (lines.isEmpty ? "" : "\n") }
        if let flow = lines.firstIndex(where: { $0.hasPrefix("routes:") && $0.contains("[") }) {
            guard lines[flow].replacingOccurrences(of: " ", with: "") == "routes:[]" else {
                throw OutputError(
                    description: "server.yml writes its routes as a flow list ('routes: [ … ]'); write them as a "
                        + "block list ('- …' lines) to record into it."
                )
            }
            lines[flow] = "routes:"
        } else if !lines.contains(where: { $0.hasPrefix("routes:") }) {
            lines.append("routes:")
        }
        let pad = String(repeating: " ", count: indent)
        lines.append("\(pad)# Recorded from \(source).")
        for route in routes {
            lines += route.split(separator: "\n").map { pad + $0 }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
