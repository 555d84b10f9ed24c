public import Foundation
import Hummingbird
public import Logging
import NIOCore
import Synchronization

/// The local HTTP server scenarios talk to: routes from `server.yml`, static fixtures, a request journal.
///
/// ```swift
/// let server = StubServer(fixtures: fixtures, routes: try ServerRouteTable.load(contentsOf: serverYML))
/// let baseURL = try await server.start()   // http://127.0.0.1:PORT
/// defer { Task { await server.stop() } }
/// ```
///
/// One server serves many scenarios; it binds 127.0.0.1 only.
public final class StubServer: Sendable {
    private enum State {
        case idle
        case starting(Task<Void, Never>?)
        case running(Task<Void, Never>, URL)
    }

    /// The folder static files and `fixture:` routes are served from.
    public let fixtures: URL
    /// The routes tried before static files.
    public let routes: ServerRouteTable
    /// Every request received since the last `clear()`.
    public let journal = RequestJournal()
    private let port: Int
    private let logger: Logger
    private let state = Mutex(State.idle)

    /// - Parameters:
    ///   - port: the port to bind on 127.0.0.1; `0` picks a free one.
    ///   - logger: where Hummingbird logs; silent by default.
    public init(
        fixtures: URL,
        routes: ServerRouteTable,
        port: Int = 0,
        logger: Logger = Logger(label: "scenario-run.stub-server", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.fixtures = fixtures
        self.routes = routes
        self.port = port
        self.logger = logger
    }

    /// The base URL while the server is listening, e.g. `http://127.0.0.1:49152`.
    public var baseURL: URL? {
        state.withLock { state in
            if case .running(_, let url) = state { return url }
            return nil
        }
    }

    /// Starts listening and returns the base URL once connections are accepted; returns the same URL when
    /// already running.
    public func start() async throws -> URL {
        let proceed: Result<Void, StubServerError>? = state.withLock { state in
            switch state {
            case .idle:
                state = .starting(nil)
                return .success(())
            case .starting:
                return .failure(.alreadyStarting)
            case .running:
                return nil
            }
        }
        switch proceed {
        case nil:
            if let url = baseURL { return url }
            throw StubServerError.stoppedBeforeListening
        case .failure(let error):
            throw error
        case .success:
            break
        }

        let (events, continuation) = AsyncStream.makeStream(of: Result<Int, StubServerError>.self)
        let requestedPort = port
        let app = Application(
            responder: StubResponder(table: routes, fixtures: FixtureFolder(fixtures), journal: journal),
            configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: port), serverName: nil),
            onServerRunning: { channel in
                continuation.yield(.success(channel.localAddress?.port ?? requestedPort))
            },
            logger: logger
        )
        let task = Task {
            do {
                try await app.run()
                continuation.yield(.failure(.stoppedBeforeListening))
            } catch {
                continuation.yield(.failure(.cannotListen(port: requestedPort, reason: "\(error)")))
            }
            continuation.finish()
        }
        state.withLock { state in
            if case .starting = state { state = .starting(task) }
        }

        var outcome: Result<Int, StubServerError> = .failure(.stoppedBeforeListening)
        for await event in events {
            outcome = event
            break
        }
        switch outcome {
        case .success(let boundPort):
            guard let url = URL(string: "http://127.0.0.1:\(boundPort)") else {
                throw StubServerError.cannotListen(port: boundPort, reason: "no URL for the port")
            }
            let stillStarting = state.withLock { state in
                guard case .starting = state else { return false }
                state = .running(task, url)
                return true
            }
            guard stillStarting else {
                task.cancel()
                await task.value
                throw StubServerError.stoppedBeforeListening
            }
            return url
        case .failure(let error):
            task.cancel()
            await task.value
            state.withLock { $0 = .idle }
            throw error
        }
    }

    /// Stops accepting connections, lets requests in flight finish (held `timeout` connections are closed),
    /// and returns once the port is free. Does nothing when not running.
    public func stop() async {
        let task: Task<Void, Never>? = state.withLock { state in
            defer { state = .idle }
            switch state {
            case .idle: return nil
            case .starting(let task): return task
            case .running(let task, _): return task
            }
        }
        guard let task else { return }
        task.cancel()
        await task.value
    }
}
