public import Foundation
import Hummingbird
import HummingbirdCore
package import Logging
import NIOCore
import ServiceLifecycle
import SharedValues
import Synchronization

/// The local HTTP server scenarios talk to: routes from `server.yml`, static fixtures, a request journal.
///
/// ```swift
/// let server = StubServer(fixtures: fixtures, routes: try ServerRouteTable.load(contentsOf: serverYML))
/// let baseURL = try await server.start()   // http://127.0.0.1:PORT
/// // ... run scenarios against baseURL, assert on server.journal ...
/// await server.stop()
/// ```
///
/// One server serves many scenarios; it binds 127.0.0.1 only, and holds every request and connection to
/// its `StubServerLimits`.
public final class StubServer: Sendable {
    /// One run of the Hummingbird application, from `start()` to `stop()`.
    private struct Run: Sendable {
        let task: Task<Void, Never>
        let group: ServiceGroup
        let held: HeldConnections
        let gracePeriod: Duration
    }

    private enum State {
        case idle
        case starting(Run?)
        case running(Run, URL, SocketAddress?)
    }

    /// The folder static files and `fixture:` routes are served from.
    public let fixtures: URL
    /// The routes tried before static files.
    package let routes: ServerRouteTable
    /// The scenario's own stubs, the routes' hits, the state and the unmatched requests: what every
    /// scenario's set-up resets (`POST /__scenario-run/reset` for `serve`).
    package let session: StubSession
    /// The requests received since the last `clear()`, within the journal's limits.
    package let journal: RequestJournal
    /// What a request and a connection may take.
    package let limits: StubServerLimits
    private let port: Int
    private let logger: Logger
    private let state = Mutex(State.idle)
    private let connections = OpenConnections()
    private let onExchange: (@Sendable (StubExchange) -> Void)?
    private let forwarding: Forwarding?

    /// - Parameters:
    ///   - port: the port to bind on 127.0.0.1; `0` picks a free one.
    ///   - limits: sizes and times a request and a connection may take.
    ///   - logger: where Hummingbird logs; silent by default.
    ///   - onExchange: called once per request answered, after the answer is chosen (`serve --verbose`).
    ///   - forwarding: requests handed to another server (`record`, `--record`).
    package init(
        fixtures: URL,
        routes: ServerRouteTable,
        port: Int = 0,
        limits: StubServerLimits = .standard,
        logger: Logger = Logger(label: "scenario-run.stub-server", factory: { _ in SwiftLogNoOpLogHandler() }),
        onExchange: (@Sendable (StubExchange) -> Void)? = nil,
        forwarding: Forwarding? = nil
    ) {
        self.forwarding = forwarding
        self.fixtures = fixtures
        self.routes = routes
        self.session = StubSession(table: routes)
        self.onExchange = onExchange
        self.port = port
        self.limits = limits
        self.journal = RequestJournal(limits: limits.journal)
        self.logger = logger
    }

    /// The base URL while the server is listening, e.g. `http://127.0.0.1:49152`.
    public var baseURL: URL? {
        state.withLock { state in
            if case .running(_, let url, _) = state { return url }
            return nil
        }
    }

    /// The IP address the listening socket is bound to, as the socket reports it (`127.0.0.1`), while
    /// listening.
    package var boundAddress: String? {
        state.withLock { state in
            guard case .running(_, _, let address) = state else { return nil }
            return address?.ipAddress
        }
    }

    /// How many client connections are open now (all of them, whichever run of the server accepted them).
    package var openConnections: Int {
        connections.value
    }

    /// Starts listening and returns the base URL once connections are accepted; returns the same URL when
    /// already running.
    public func start() async throws -> URL {
        let current: Result<URL?, StubServerError> = state.withLock { state in
            switch state {
            case .idle:
                state = .starting(nil)
                return .success(nil)
            case .starting:
                return .failure(.alreadyStarting)
            case .running(_, let url, _):
                return .success(url)
            }
        }
        if let url = try current.get() { return url }

        let (events, continuation) = AsyncStream.makeStream(of: Result<SocketAddress?, StubServerError>.self)
        let requestedPort = port
        let held = HeldConnections()
        let folder = FixtureFolder(fixtures)
        let app = Application(
            responder: StubResponder(
                session: session,
                fixtures: ServedFixtures(folder),
                fixtureTemplates: FixtureTemplates(),
                journal: journal,
                held: held,
                limits: limits,
                routeFile: folder.file(named: "server.yml")?.path,
                onExchange: onExchange,
                forwarding: forwarding
            ),
            server: .http1(configuration: Self.channelConfiguration(limits: limits, connections: connections)),
            configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: port), serverName: nil),
            onServerRunning: { channel in
                continuation.yield(.success(channel.localAddress))
            },
            logger: logger
        )
        let group = ServiceGroup(services: [app], gracefulShutdownSignals: [], cancellationSignals: [], logger: logger)
        let task = Task {
            do {
                try await group.run()
                continuation.yield(.failure(.stoppedBeforeListening))
            } catch {
                continuation.yield(.failure(.cannotListen(port: requestedPort, reason: "\(error)")))
            }
            continuation.finish()
        }
        let run = Run(task: task, group: group, held: held, gracePeriod: limits.stopGracePeriod)
        state.withLock { state in
            if case .starting = state { state = .starting(run) }
        }

        var outcome: Result<SocketAddress?, StubServerError> = .failure(.stoppedBeforeListening)
        for await event in events {
            outcome = event
            break
        }
        var url: URL?
        var bound: SocketAddress?
        var failure: StubServerError?
        switch outcome {
        case .success(let address):
            bound = address
            url = URL(string: "http://127.0.0.1:\(address?.port ?? requestedPort)")
        case .failure(let error):
            failure = error
        }
        let listening = state.withLock { state in
            guard case .starting(let current) = state, current?.task == task else { return false }
            if let url {
                state = .running(run, url, bound)
                return true
            }
            state = .idle
            return false
        }
        guard listening, let url else {
            await Self.stop(run)
            throw failure ?? .stoppedBeforeListening
        }
        return url
    }

    /// A server with no route and no fixture, started on a free port, and its base URL; `nil` when it
    /// cannot start. A process's first server start pays for the first use of the HTTP machinery (about
    /// 4 ms, release), the next costs a tenth of it, and so does a first request, on both sides: a worker
    /// starts this one while its run is on the way, so that its real server starts at once, and sends it a
    /// request while its first scenario is on the way (no route: a 404); then stops it.
    package static func startedForWarmUp() async -> (server: StubServer, url: URL)? {
        let server = StubServer(
            fixtures: URL(fileURLWithPath: "/nonexistent/scenario-run-warm-up", isDirectory: true),
            routes: ServerRouteTable(routes: [])
        )
        guard let url = try? await server.start() else {
            await server.stop()
            return nil
        }
        return (server, url)
    }

    /// Stops accepting connections, lets requests in flight finish (connections held by a `timeout` fault
    /// are closed), and returns once the port is free. Does nothing when not running.
    public func stop() async {
        let run: Run? = state.withLock { state in
            defer { state = .idle }
            switch state {
            case .idle: return nil
            case .starting(let run): return run
            case .running(let run, _, _): return run
            }
        }
        if let run {
            await Self.stop(run)
        }
    }

    /// Hummingbird's HTTP/1.1 channel with the head limits, the idle timeout and a `ConnectionGuard` per
    /// connection.
    private static func channelConfiguration(
        limits: StubServerLimits,
        connections: OpenConnections
    ) -> HTTP1Channel.Configuration {
        HTTP1Channel.Configuration(
            additionalChannelHandlers: [ConnectionGuard(limits: limits, connections: connections)],
            idleTimeout: TimeAmount(limits.idleTimeout),
            httpDecoderConfiguration: .init(
                maxHeaderFieldSize: limits.headBytes,
                maxHeaderListSize: limits.headBytes,
                maxHeaderFieldCount: limits.headerCount
            )
        )
    }

    private static func stop(_ run: Run) async {
        run.held.closeAll()
        await run.group.triggerGracefulShutdown()
        // Requests still running after the grace period are cancelled.
        let deadline = Task {
            if (try? await Task.sleep(for: run.gracePeriod)) != nil { run.task.cancel() }
        }
        await run.task.value
        deadline.cancel()
    }
}
