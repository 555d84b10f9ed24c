import Foundation
import Hummingbird
import NIOCore
import SharedValues

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Answers one request: the scenario's own stubs and the route table (the first route whose method, path,
/// state and `when:` hold), then a static fixture (never `server.yml` itself), else a JSON 404 naming the
/// nearest routes and why each missed. The request is journaled, with the route chosen, before any answer.
///
/// The body is read only to be journaled and matched: its first `RequestJournal.Limits.bodyBytes` are
/// kept (all of it when requests are forwarded), and one longer than `StubServerLimits.bodyBytes` is
/// answered 413 and its connection closed — at once when its `Content-Length` says so, otherwise as soon
/// as the limit is passed.
struct StubResponder: HTTPResponder {
    typealias Context = StubRequestContext

    /// The target that resets the scenario state (`serve` has no scenario set-up to do it).
    static let resetPath = "/__scenario-run/reset"

    let session: StubSession
    let fixtures: ServedFixtures
    let fixtureTemplates: FixtureTemplates
    let journal: RequestJournal
    let held: HeldConnections
    let limits: StubServerLimits
    /// The real path of the route table file, which is never served as a fixture.
    let routeFile: String?
    let onExchange: (@Sendable (StubExchange) -> Void)?
    /// Requests handed to another server (`record`, `--record`), or `nil`.
    let forwarding: Forwarding?

    func respond(to request: Request, context: StubRequestContext) async throws -> Response {
        let started = ContinuousClock.now
        let method = request.method.rawValue.uppercased()
        let target = request.head.path ?? "/"
        let (path, query) = RequestPath.split(target: target)
        func log(_ outcome: String, _ source: StubExchange.Source) {
            onExchange?(
                StubExchange(
                    method: method,
                    target: target,
                    outcome: outcome,
                    source: source,
                    duration: ContinuousClock.now - started
                )
            )
        }
        if method == "POST", path == Self.resetPath {
            session.reset()
            log("204", .reset)
            return Response(status: .noContent)
        }
        // HTTP/1's `Host` arrives as the authority, not among the fields; the journal and `when:` see it as sent.
        let host = request.head.authority.map { [HTTPHeader(name: "Host", value: $0)] } ?? []
        var headers = host + request.headers.map { HTTPHeader(name: $0.name.rawName, value: $0.value) }
        // The object manager's note of the step that sent it: taken off before anything else sees the request.
        var origin: RequestOrigin?
        if let index = headers.firstIndex(where: RequestOrigin.isHeader) {
            origin = RequestOrigin(headerValue: headers[index].value)
            headers.remove(at: index)
        }
        let body = try await readBody(of: request)
        let journalBytes = journal.limits.bodyBytes
        var entry = JournalEntry(
            method: method,
            path: path,
            query: query,
            headers: headers,
            body: body.kept.count > journalBytes ? Data(body.kept.prefix(journalBytes)) : body.kept,
            bodyLength: body.length
        )
        entry.origin = origin
        if let refusal = body.refusal {
            let place = journal.record(entry)
            var response = Self.error(refusal.message, status: .contentTooLarge)
            journal.answered(place, status: 413, body: Self.errorBody(refusal.message))
            response.headers[.connection] = "close"
            log("413", .refused)
            return response
        }

        if let forwarding, forwarding.scope == .everything {
            let place = journal.record(entry)
            return await forward(entry, body: body.kept, at: place, through: forwarding, log: log)
        }

        let incoming = IncomingRequest(entry)
        let segments = RequestPath.decodedSegments(of: path)
        // Matching that may take a while runs off the event loop every connection is read on.
        let slow = session.regexSteps(for: incoming) > StubSession.slowMatchingSteps
        let session = self.session
        let chosen =
            slow
            ? await MatchingThread.run { session.choose(for: incoming, segments: segments) }
            : session.choose(for: incoming, segments: segments)
        // Journaled with the route that answers, before the answer leaves: a step that sees the response
        // also sees the request.
        entry.route = chosen?.route.place
        entry.heldToContract = chosen?.route.heldToContract ?? true
        let journaled = journal.record(entry)
        guard let choice = chosen else {
            if let (data, file) = fixtures.contents(atRequestPath: path), file != routeFile {
                log("200", .file(path))
                journal.answered(journaled, status: 200, body: data)
                return Self.file(data, named: file)
            }
            if let forwarding {
                return await forward(entry, body: body.kept, at: journaled, through: forwarding, log: log)
            }
            // Ranking every route against the request takes a while with many routes or a long path: never
            // on the event loop (an unmatched request is not the common case).
            let unmatched = await MatchingThread.run { session.recordUnmatched(incoming, segments: segments) }
            log("404", .unmatched(unmatched))
            let (response, body) = Self.notFound(unmatched, method: method, path: path)
            journal.answered(journaled, status: 404, body: body)
            return response
        }
        let place = choice.route.place
        if let delay = choice.answer.delay {
            try await Task.sleep(for: delay)
        }
        if let fault = choice.answer.fault {
            log(fault.rawValue, .route(place))
            return await perform(fault, on: context.channel)
        }
        let values = TemplateValues(request: incoming, parameters: choice.parameters, sequence: choice.sequence)
        let (response, bytes) = answer(choice.answer, values: values)
        log("\(response.status.code)", .route(place))
        journal.answered(journaled, status: response.status.code, body: bytes)
        return response
    }

    // MARK: - Forwarding

    /// The other server's answer to `entry`, sent with its whole `body`, as it gave it (hop-by-hop headers
    /// apart).
    private func forward(
        _ entry: JournalEntry,
        body: Data,
        at place: RequestJournal.Cursor,
        through forwarding: Forwarding,
        log: (String, StubExchange.Source) -> Void
    ) async -> Response {
        let answer = await forwarding.forward(
            ForwardedRequest(
                method: entry.method,
                path: entry.path,
                query: entry.query,
                headers: entry.headers,
                body: body
            )
        )
        log("\(answer.status)", .forwarded)
        journal.answered(place, status: answer.status, body: answer.body)
        var fields = HTTPFields()
        for header in answer.headers where !Forwarding.hopByHop.contains(header.name.lowercased()) {
            if let name = HTTPFields.Element.Name(header.name) {
                fields.append(HTTPFields.Element(name: name, value: header.value))
            }
        }
        return Response(
            status: HTTPResponse.Status(code: answer.status),
            headers: fields,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer.body))
        )
    }

    // MARK: - Body

    /// The start of a body kept for the journal (the whole body when requests are forwarded: the other
    /// server gets what was sent), its length, and why it was refused, if it was.
    private struct Body {
        var kept = Data()
        var length = 0
        var refusal: RequestRefusal?
    }

    /// Reads the body, keeping its start; stops at the body limit, or before reading when `Content-Length`
    /// is over it.
    private func readBody(of request: Request) async throws -> Body {
        var body = Body()
        // The first field, read in place: the subscript by name joins every value into a new string.
        if let field = request.headers.first(where: { $0.name == .contentLength }), let declared = Int(field.value),
            declared > limits.bodyBytes
        {
            body.length = declared
            body.refusal = .bodyTooLarge(length: declared, limit: limits.bodyBytes)
            return body
        }
        let keep = forwarding == nil ? journal.limits.bodyBytes : limits.bodyBytes
        for try await chunk in request.body {
            body.length += chunk.readableBytes
            if body.kept.count < keep {
                body.kept.append(contentsOf: chunk.readableBytesView.prefix(keep - body.kept.count))
            }
            if body.length > limits.bodyBytes {
                body.refusal = .bodyTooLarge(length: nil, limit: limits.bodyBytes)
                break
            }
        }
        // Appending grew the storage past what it holds; the journal keeps an exact copy.
        if !body.kept.isEmpty {
            body.kept = body.kept.withUnsafeBytes { Data($0) }
        }
        return body
    }

    // MARK: - Answers

    /// The response, and its body's bytes for the journal.
    private func answer(_ answer: StubAnswer, values: TemplateValues) -> (Response, Data) {
        let bytes: Data
        switch answer.content {
        case .none:
            bytes = Data()
        case .body(let text):
            bytes = Data(text.utf8)
        case .bodyTemplate(let template):
            bytes = Data(template.render(values).utf8)
        case .json(let json):
            bytes = json
        case .jsonTemplate(let template):
            bytes = template.render(values).encoded()
        case .fixture(let name):
            guard let (data, _) = fixtures.contents(named: name) else {
                let message = fixtures.folder.message(for: name)
                return (Self.error(message, status: .notFound), Self.errorBody(message))
            }
            guard answer.fixtureIsTemplate else {
                bytes = data
                break
            }
            switch fixtureTemplates.template(named: name, data: data, escaping: .init(contentType: answer.contentType))
            {
            case .success(let template): bytes = Data(template.render(values).utf8)
            case .failure(let error):
                let message = "Fixture '\(name)' is not a valid template: \(error.message)."
                return (Self.error(message, status: .internalServerError), Self.errorBody(message))
            }
        }
        var fields = HTTPFields()
        let explicitType = answer.headers.contains { $0.hasName("Content-Type") }
        if let contentType = answer.contentType, !explicitType {
            fields[.contentType] = contentType
        }
        for (index, header) in answer.headers.enumerated() {
            // Names were checked when the table was parsed; a hand-built route with a bad name loses that header.
            guard let name = HTTPFields.Element.Name(header.name) else { continue }
            let value = answer.headerTemplates[index]?.render(values) ?? header.value
            fields.append(HTTPFields.Element(name: name, value: value))
        }
        let response = Response(
            status: HTTPResponse.Status(code: answer.status),
            headers: fields,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes))
        )
        return (response, bytes)
    }

    private static func file(_ data: Data, named file: String) -> Response {
        var fields = HTTPFields()
        fields[.contentType] = MIMEType.forFile(named: file)
        return Response(status: .ok, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// `{"error": "No route or fixture for GET /x; nearest …", "nearest": [{"route", "at", "why"}]}`.
    private static func notFound(_ unmatched: UnmatchedRequest, method: String, path: String) -> (Response, Data) {
        let nearest = unmatched.nearest.map { miss -> JSONValue in
            var members: [String: JSONValue] = [
                "route": .string(miss.route), "why": .array(miss.reasons.map(JSONValue.string)),
            ]
            if let place = miss.place { members["at"] = .string(place) }
            return .object(members)
        }
        let near =
            unmatched.nearest.isEmpty ? "" : "; nearest " + unmatched.nearest.map(\.description).joined(separator: "; ")
        var members: [String: JSONValue] = ["error": .string("No route or fixture for \(method) \(path)" + near)]
        if !nearest.isEmpty { members["nearest"] = .array(nearest) }
        let body = JSONValue.object(members).encoded()
        var fields = HTTPFields()
        fields[.contentType] = MIMEType.json
        let response = Response(
            status: .notFound,
            headers: fields,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body))
        )
        return (response, body)
    }

    static func error(_ message: String, status: HTTPResponse.Status) -> Response {
        var fields = HTTPFields()
        fields[.contentType] = MIMEType.json
        let body = errorBody(message)
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// `{"error": MESSAGE}`.
    static func errorBody(_ message: String) -> Data {
        JSONValue.object(["error": .string(message)]).encoded()
    }

    // MARK: - Faults

    /// Breaks the connection as the fault says; the returned response is never seen by the client.
    private func perform(_ fault: StubFault, on channel: any Channel) async -> Response {
        switch fault {
        case .connectionReset:
            // SO_LINGER with a zero timeout makes close() send RST instead of FIN.
            if let options = channel as? any SocketOptionProvider {
                try? await options.setSoLinger(linger(l_onoff: 1, l_linger: 0)).get()
            }
            try? await channel.close()
        case .emptyResponse:
            try? await channel.close()
        case .timeout:
            await held.hold(channel)
        }
        return Response(status: .serviceUnavailable)
    }
}
