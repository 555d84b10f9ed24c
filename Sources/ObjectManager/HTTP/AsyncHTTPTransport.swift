import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// A transport through AsyncHTTPClient (TLS, a connection pool): what `NIOHTTPTransport` hands
/// `https://` requests to, and a choice for an app whose API needs more than plain HTTP/1.1.
package final class AsyncHTTPTransport: HTTPTransport {
    private let client: AsyncHTTPClient.HTTPClient

    /// A transport on its own client; `connectTimeout` bounds connection set-up. An https server's
    /// certificate is verified against the system's CA bundle, or only against the PEM certificates in
    /// `trustedCertificates` when it names a file (a staging server's own CA, a test certificate).
    package init(connectTimeout: Duration = .seconds(5), trustedCertificates: String? = nil) {
        var configuration = AsyncHTTPClient.HTTPClient.Configuration()
        if let trustedCertificates {
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.trustRoots = .file(trustedCertificates)
            configuration.tlsConfiguration = tls
        }
        configuration.timeout.connect = connectTimeout.timeAmount
        configuration.redirectConfiguration = .disallow
        configuration.decompression = .disabled
        // No request spans: a stub server's requests are not worth tracing, and a span per request is measurable.
        configuration.tracing.tracer = nil
        self.client = AsyncHTTPClient.HTTPClient(
            eventLoopGroup: MultiThreadedEventLoopGroup.singleton,
            configuration: configuration
        )
    }

    deinit {
        // Never block here: the last reference may be dropped on an event loop or the cooperative pool.
        _ = client.shutdown()
    }

    package func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = NIOHTTP1.HTTPMethod(rawValue: request.method.rawValue)
        for header in request.headers {
            outgoing.headers.add(name: header.name, value: header.value)
        }
        if let body = request.body {
            outgoing.body = .bytes(ByteBuffer(bytes: body))
        }
        do {
            let response = try await client.execute(outgoing, timeout: request.timeout.timeAmount)
            let body = try await response.body.collect(upTo: HTTPResponse.maximumBodyBytes)
            return HTTPResponse(
                status: Int(response.status.code),
                headers: response.headers.map { HTTPHeader(name: $0.name, value: $0.value) },
                body: body.readableData,
                url: request.url
            )
        } catch let error as AsyncHTTPClient.HTTPClientError {
            throw Self.translate(error, request: request)
        } catch is CancellationError {
            throw ObjectManagerError.cancelled(url: request.url)
        } catch is NIOTooManyBytesError {
            throw ObjectManagerError.connectionFailed(url: request.url, reason: HTTPResponse.tooLongReason)
        } catch let error as IOError {
            throw ObjectManagerError.connectionFailed(url: request.url, reason: Self.describe(error))
        } catch let error as NIOConnectionError {
            throw ObjectManagerError.connectionFailed(url: request.url, reason: "\(error)")
        }
    }

    package func shutdown() async {
        try? await client.shutdown()
    }

    static func translate(_ error: AsyncHTTPClient.HTTPClientError, request: HTTPRequest) -> ObjectManagerError {
        switch error {
        case .cancelled:
            return .cancelled(url: request.url)
        case .deadlineExceeded, .readTimeout, .writeTimeout, .connectTimeout:
            return .timedOut(url: request.url, after: request.timeout)
        case .remoteConnectionClosed:
            return .connectionFailed(url: request.url, reason: "The server closed the connection without a response.")
        default:
            return .connectionFailed(url: request.url, reason: error.description)
        }
    }

    static func describe(_ error: IOError) -> String {
        switch error.errnoCode {
        case ECONNRESET: "The connection was reset by the server."
        case ECONNREFUSED: "The connection was refused."
        default: error.description
        }
    }
}
