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

/// Answers one request: journal first, then the route table, then a static fixture, else a JSON 404.
///
/// The body is read only to be journaled: its first `RequestJournal.Limits.bodyBytes` are kept, and one
/// longer than `StubServerLimits.bodyBytes` is answered 413 and its connection closed — at once when its
/// `Content-Length` says so, otherwise as soon as the limit is passed.
struct StubResponder: HTTPResponder {
    typealias Context = StubRequestContext

    let table: ServerRouteTable
    let fixtures: ServedFixtures
    let journal: RequestJournal
    let held: HeldConnections
    let limits: StubServerLimits

    func respond(to request: Request, context: StubRequestContext) async throws -> Response {
        let method = request.method.rawValue.uppercased()
        let (path, query) = RequestPath.split(target: request.head.path ?? "/")
        let headers = request.headers.map { HTTPHeader(name: $0.name.rawName, value: $0.value) }
        let body = try await readBody(of: request)
        journal.record(
            JournalEntry(
                method: method,
                path: path,
                query: query,
                headers: headers,
                body: body.kept,
                bodyLength: body.length
            )
        )
        if let refusal = body.refusal {
            var response = Self.error(refusal.message, status: .contentTooLarge)
            response.headers[.connection] = "close"
            return response
        }

        guard let segments = RequestPath.decodedSegments(of: path),
            let (route, _) = table.match(method: method, segments: segments)
        else {
            return staticFile(method: method, path: path)
        }
        if let delay = route.delay {
            try await Task.sleep(for: delay)
        }
        if let fault = route.fault {
            return await perform(fault, on: context.channel)
        }
        return answer(route, method: method, path: path)
    }

    // MARK: - Body

    /// The start of a body kept for the journal, its length, and why it was refused, if it was.
    private struct Body {
        var kept = Data()
        var length = 0
        var refusal: RequestRefusal?
    }

    /// Reads the body, keeping its start; stops at the body limit, or before reading when `Content-Length`
    /// is over it.
    private func readBody(of request: Request) async throws -> Body {
        var body = Body()
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > limits.bodyBytes {
            body.length = declared
            body.refusal = .bodyTooLarge(length: declared, limit: limits.bodyBytes)
            return body
        }
        let keep = journal.limits.bodyBytes
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

    private func answer(_ route: ServerRoute, method: String, path: String) -> Response {
        let bytes: Data
        var contentType: String?
        switch route.content {
        case .none:
            bytes = Data()
        case .body(let text):
            bytes = Data(text.utf8)
            contentType = MIMEType.text
        case .json(let json):
            bytes = json
            contentType = MIMEType.json
        case .fixture(let name):
            guard let (data, _) = fixtures.contents(named: name) else {
                let message = fixtures.folder.message(for: name)
                return Self.error(message, status: .notFound)
            }
            bytes = data
            contentType = MIMEType.forFile(named: name)
        }
        var fields = HTTPFields()
        let explicitType = route.headers.contains { $0.hasName("Content-Type") }
        if let contentType, !explicitType {
            fields[.contentType] = contentType
        }
        for header in route.headers {
            // Names were checked when the table was parsed; a hand-built route with a bad name loses that header.
            guard let name = HTTPFields.Element.Name(header.name) else { continue }
            fields.append(HTTPFields.Element(name: name, value: header.value))
        }
        return Response(
            status: HTTPResponse.Status(code: route.status),
            headers: fields,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes))
        )
    }

    private func staticFile(method: String, path: String) -> Response {
        guard let (data, file) = fixtures.contents(atRequestPath: path) else {
            return Self.error("No route or fixture for \(method) \(path)", status: .notFound)
        }
        var fields = HTTPFields()
        fields[.contentType] = MIMEType.forFile(named: String(file.split(separator: "/").last ?? ""))
        return Response(status: .ok, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func error(_ message: String, status: HTTPResponse.Status) -> Response {
        var fields = HTTPFields()
        fields[.contentType] = MIMEType.json
        let body = JSONValue.object(["error": .string(message)]).encoded()
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
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
