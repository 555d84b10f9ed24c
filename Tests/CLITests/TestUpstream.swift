import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import NIOSSL
import ServiceLifecycle
import Synchronization

/// A real server the tests record from, on 127.0.0.1 — over https with the test certificate of `TLS/`, or
/// plain http — answering `GET /greeting` with a JSON body and `POST /length` with how many bytes of body
/// it received, and holding `GET /hang` open until it stops (``arrivals`` yields when a request to it has
/// arrived).
final class TestUpstream: Sendable {
    let url: String
    private let group: ServiceGroup
    private let task: Task<Void, Never>
    private let hanging: AsyncStream<Void>.Continuation
    /// One element per request to `/hang` that has arrived.
    let arrivals: AsyncStream<Void>

    static let greeting = Data(#"{"hello":"over TLS","n":1}"#.utf8)
    static let certificates = CLI.repositoryRoot.appendingPathComponent("Tests/CLITests/TLS")

    private init(
        url: String,
        group: ServiceGroup,
        task: Task<Void, Never>,
        hanging: AsyncStream<Void>.Continuation,
        arrivals: AsyncStream<Void>
    ) {
        self.url = url
        self.group = group
        self.task = task
        self.hanging = hanging
        self.arrivals = arrivals
    }

    static func start(tls: Bool) async throws -> TestUpstream {
        let (arrivals, arrived) = AsyncStream.makeStream(of: Void.self)
        let (released, hanging) = AsyncStream.makeStream(of: Void.self)
        let router = Router()
        router.get("greeting") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: greeting))
            )
        }
        router.post("length") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 64 << 20)
            return Response(
                status: .ok,
                headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: #"{"received":\#(body.readableBytes)}"#))
            )
        }
        router.get("hang") { _, _ -> Response in
            arrived.yield()
            for await _ in released {}
            return Response(status: .noContent)
        }
        let server: HTTPServerBuilder
        if tls {
            var configuration = TLSConfiguration.makeServerConfiguration(
                certificateChain: try NIOSSLCertificate.fromPEMFile(
                    certificates.appendingPathComponent("server.pem").path
                ).map { .certificate($0) },
                privateKey: .privateKey(
                    try NIOSSLPrivateKey(file: certificates.appendingPathComponent("server-key.pem").path, format: .pem)
                )
            )
            configuration.minimumTLSVersion = .tlsv12
            server = try .tls(.http1(), tlsConfiguration: configuration)
        } else {
            server = .http1()
        }
        let (ports, port) = AsyncStream.makeStream(of: Int?.self)
        let app = Application(
            router: router,
            server: server,
            configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0), serverName: nil),
            onServerRunning: { channel in port.yield(channel.localAddress?.port) }
        )
        let group = ServiceGroup(
            services: [app],
            gracefulShutdownSignals: [],
            cancellationSignals: [],
            logger: app.logger
        )
        let task = Task {
            try? await group.run()
            port.yield(nil)
        }
        var bound: Int?
        for await value in ports {
            bound = value
            break
        }
        guard let bound else { throw CocoaError(.featureUnsupported) }
        return TestUpstream(
            url: "\(tls ? "https" : "http")://127.0.0.1:\(bound)",
            group: group,
            task: task,
            hanging: hanging,
            arrivals: arrivals
        )
    }

    /// Lets the held requests go and stops listening.
    func stop() async {
        hanging.finish()
        await group.triggerGracefulShutdown()
        await task.value
    }
}
