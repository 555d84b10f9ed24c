public import Foundation
import Synchronization

/// The object manager's HTTP client (RKClient): base URL, default headers, timeout, a transport,
/// and the network reachability of the base URL's host.
///
/// ```swift
/// let client = HTTPClient(baseURL: URL(string: "http://127.0.0.1:8080")!)
/// client.setDefaultHeader("Accept", to: "application/json")
/// await client.startMonitoringReachability()   // live: posts .reachabilityDidChange on changes
/// client.stubReachability(.notReachable)       // stops monitoring, posts the notification
/// ```
public final class HTTPClient: Sendable {
    /// The URL whose host reachability is about; the object manager's requests are relative to it.
    public let baseURL: URL
    /// What sends the requests: by default HTTP/1.1 over kept-alive connections.
    public let transport: any HTTPTransport
    private let probe: any ReachabilityProbe
    private let sharedMonitor: ReachabilityMonitor?
    private let notificationCenter: NotificationCenter
    private let state: Mutex<State>

    struct State {
        var defaultHeaders: [HTTPHeader]
        var timeout: Duration
        var reachability: ReachabilityStatus = .unknown
        var monitoring: Monitoring?
        var isStubbed = false
    }

    /// A client for `baseURL`.
    ///
    /// - Parameters:
    ///   - baseURL: the API's base URL, which request paths are relative to.
    ///   - transport: sends requests; by default HTTP/1.1 over kept-alive loopback/TCP connections.
    ///   - reachabilityProbe: how live monitoring checks the base URL's host.
    ///   - notificationCenter: where `.reachabilityDidChange` is posted.
    ///   - timeout: how long a request may take.
    public convenience init(
        baseURL: URL,
        transport: (any HTTPTransport)? = nil,
        reachabilityProbe: any ReachabilityProbe = InterfaceReachabilityProbe(),
        notificationCenter: NotificationCenter = .default,
        timeout: Duration = .seconds(10)
    ) {
        self.init(
            baseURL: baseURL,
            transport: transport,
            reachabilityProbe: reachabilityProbe,
            reachabilityMonitor: nil,
            notificationCenter: notificationCenter,
            timeout: timeout
        )
    }

    /// A client that follows a reachability monitor shared with other clients of the same host.
    package init(
        baseURL: URL,
        transport: (any HTTPTransport)?,
        reachabilityProbe: any ReachabilityProbe = InterfaceReachabilityProbe(),
        reachabilityMonitor: ReachabilityMonitor?,
        notificationCenter: NotificationCenter = .default,
        timeout: Duration = .seconds(10)
    ) {
        self.baseURL = baseURL
        self.transport = transport ?? NIOHTTPTransport()
        self.probe = reachabilityProbe
        self.sharedMonitor = reachabilityMonitor
        self.notificationCenter = notificationCenter
        self.state = Mutex(
            State(defaultHeaders: [HTTPHeader(name: "Accept", value: "application/json")], timeout: timeout)
        )
    }

    /// The monitor a client follows while it monitors reachability; its own unless it was given one to share.
    struct Monitoring {
        var monitor: ReachabilityMonitor
        var observation: Observation
        var owned: Bool

        func end() {
            observation.cancel()
            if owned { monitor.stop() }
        }
    }

    deinit {
        state.withLock { $0.monitoring?.end() }
    }

    // MARK: Headers and timeout

    /// Headers sent with every request (a request's own headers win).
    public var defaultHeaders: [HTTPHeader] { state.withLock { $0.defaultHeaders } }

    /// Sets a header sent with every request, replacing any default header of that name.
    ///
    /// ```swift
    /// manager.client.setDefaultHeader("Authorization", to: "Bearer \(token)")
    /// ```
    public func setDefaultHeader(_ name: String, to value: String) {
        state.withLock { $0.defaultHeaders.set(name, to: value) }
    }

    /// How long a request may take before it fails with `.timedOut`.
    public var timeout: Duration {
        get { state.withLock { $0.timeout } }
        set { state.withLock { $0.timeout = newValue } }
    }

    /// A request for `url`, with the default headers and timeout.
    public func request(_ method: HTTPMethod, url: URL, body: Data? = nil, headers: [HTTPHeader] = []) -> HTTPRequest {
        var merged = defaultHeaders
        for header in headers { merged.set(header.name, to: header.value) }
        if body != nil, merged[field: "Content-Type"] == nil {
            merged.set("Content-Type", to: "application/json")
        }
        // In a scenario run: which step sent it, for the stub server (which takes the header off).
        if let origin = RequestOrigin.current {
            merged.append(HTTPHeader(name: RequestOrigin.header, value: origin.headerValue))
        }
        return HTTPRequest(method: method, url: url, headers: merged, body: body, timeout: timeout)
    }

    /// Sends a request through the transport.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await transport.send(request)
    }

    // MARK: Reachability

    /// The current reachability status of the base URL's host.
    public var reachabilityStatus: ReachabilityStatus { state.withLock { $0.reachability } }

    /// Whether reachability is being monitored live (as opposed to stubbed or not started).
    public var isMonitoringReachability: Bool { state.withLock { $0.monitoring != nil } }

    /// Whether the status is stubbed (`stubReachability(_:)`) and the stub not since forgotten by
    /// `stopMonitoringReachability()`.
    package var isReachabilityStubbed: Bool { state.withLock { $0.isStubbed } }

    /// Probes the host once, then keeps probing every `interval`, posting `.reachabilityDidChange`
    /// whenever the status changes. Returns after the first probe, so the status is known. A client
    /// made with a shared `reachabilityMonitor` follows that monitor (and its interval) instead; its
    /// first status is the monitor's last probe.
    public func startMonitoringReachability(every interval: Duration = .seconds(2)) async {
        let owned = sharedMonitor == nil
        let monitor =
            sharedMonitor ?? ReachabilityMonitor(host: baseURL.host ?? "localhost", probe: probe, interval: interval)
        let first = await monitor.start()
        guard state.withLock({ !$0.isStubbed }) else {
            if owned { monitor.stop() }
            return
        }
        let observation = monitor.observe { [weak self] status in self?.update(to: status, stubbed: false) }
        let previous = state.withLock { state in
            defer { state.monitoring = Monitoring(monitor: monitor, observation: observation, owned: owned) }
            return state.monitoring
        }
        previous?.end()
        update(to: first, stubbed: false)
    }

    /// Stops live monitoring, sets the status and posts the reachability-changed notification
    /// (always, even when the status does not change — a stub is an event the app should see).
    public func stubReachability(_ status: ReachabilityStatus) {
        let monitoring = state.withLock { state in
            defer { state.monitoring = nil; state.isStubbed = true }
            return state.monitoring
        }
        monitoring?.end()
        state.withLock { $0.reachability = status }
        post(status)
    }

    /// Stops live monitoring and forgets a stub; the status stays as it is.
    public func stopMonitoringReachability() {
        let monitoring = state.withLock { state in
            defer { state.monitoring = nil; state.isStubbed = false }
            return state.monitoring
        }
        monitoring?.end()
    }

    private func update(to status: ReachabilityStatus, stubbed: Bool) {
        let changed = state.withLock { state -> Bool in
            guard !state.isStubbed || stubbed, state.reachability != status else { return false }
            state.reachability = status
            return true
        }
        if changed { post(status) }
    }

    private func post(_ status: ReachabilityStatus) {
        notificationCenter.post(
            name: .reachabilityDidChange,
            object: self,
            userInfo: [ReachabilityStatus.userInfoKey: status]
        )
    }
}
