/// How much one request and one connection may take from the stub server, and for how long.
///
/// ```swift
/// var limits = StubServerLimits.standard
/// limits.headTimeout = .milliseconds(200)   // tests use short times
/// let server = StubServer(fixtures: fixtures, routes: table, limits: limits)
/// ```
///
/// A head over `headBytes` or `headerCount` is answered 431, a malformed one 400, a body over `bodyBytes`
/// 413; each of those responses closes the connection. A head not complete within `headTimeout` of its
/// first byte is answered 408 and closed; a connection with nothing to read or write for `idleTimeout`
/// is closed without a word. Once the server has said its last word on a connection, the client has
/// `lingerTimeout` to close its end (what it still sends meanwhile is read and dropped) before the
/// server closes both. `stop()` lets requests in flight finish for `stopGracePeriod`, then cancels them.
package struct StubServerLimits: Sendable, Equatable {
    /// The most bytes of a request head: request line and every header line.
    package var headBytes: Int
    /// The most header fields in one request head.
    package var headerCount: Int
    /// The longest request body read; a longer one is answered 413 without being read.
    package var bodyBytes: Int
    /// How long a started request head may take to arrive whole.
    package var headTimeout: Duration
    /// How long a connection may go without a whole request part arriving or a response ending
    /// (Hummingbird's own idle timeout).
    package var idleTimeout: Duration
    /// How long a connection the server has finished with waits for the client to close it.
    package var lingerTimeout: Duration
    /// How long `stop()` lets requests in flight finish before cancelling them.
    package var stopGracePeriod: Duration
    /// What the request journal keeps.
    package var journal: RequestJournal.Limits

    package init(
        headBytes: Int = 64 << 10,
        headerCount: Int = 1000,
        bodyBytes: Int = 8 << 20,
        headTimeout: Duration = .seconds(10),
        idleTimeout: Duration = .seconds(30),
        lingerTimeout: Duration = .seconds(2),
        stopGracePeriod: Duration = .seconds(5),
        journal: RequestJournal.Limits = .standard
    ) {
        self.headBytes = headBytes
        self.headerCount = headerCount
        self.bodyBytes = bodyBytes
        self.headTimeout = headTimeout
        self.idleTimeout = idleTimeout
        self.lingerTimeout = lingerTimeout
        self.stopGracePeriod = stopGracePeriod
        self.journal = journal
    }

    /// Head 64 KiB and 1,000 headers, body 8 MiB, head within 10 s, idle 30 s, linger 2 s, a stop's grace
    /// period 5 s, and the journal's standard limits.
    package static let standard = StubServerLimits()
}
