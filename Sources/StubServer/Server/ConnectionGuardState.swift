/// What one connection is doing, as far as its limits care: a plain state machine whose events return the
/// actions `ConnectionGuard` performs on the channel.
///
/// ```swift
/// var state = ConnectionGuardState()
/// state.bytesArrived()        // .forward: a request head has begun
/// state.readEnded()           // .startHeadTimer when the read did not bring the whole head
/// state.headReceived()        // .cancelHeadTimer
/// state.responseEnds()        // .pass, or .passThenFinish when the response said `Connection: close`
/// ```
struct ConnectionGuardState: Equatable {
    /// Where the connection is in reading a request.
    enum Reading: Equatable {
        /// Between requests: nothing of the next one has arrived.
        case betweenRequests
        /// Bytes of a head have arrived, the whole head not yet.
        case head
        /// The head has arrived; the body and the response follow.
        case message
    }

    /// What to do with bytes that arrived.
    enum BytesAction: Equatable {
        case forward
        /// The server has finished with the connection: read and dropped, so the client can finish sending.
        case drop
    }

    /// What to do with a response head being written.
    enum ResponseHeadAction: Equatable {
        case pass
        /// Hummingbird answers every parse error 400; a head over the limits is answered 431 instead.
        case answerHeadTooLarge
    }

    /// What to do with the end of a response being written.
    enum ResponseEndAction: Equatable {
        case pass
        /// Write it, then close the output and linger.
        case passThenFinish
    }

    /// What to do when a timer fires or the client closes its end.
    enum Action: Equatable {
        case none
        /// A head has begun and is not complete (unless its timer already runs).
        case startHeadTimer
        case cancelHeadTimer
        case startLingerTimer
        /// Answer 408, close the output and linger.
        case answerTimeoutThenFinish
        case close
    }

    private(set) var reading = Reading.betweenRequests
    /// The parse error was a head over the limits.
    private(set) var headTooLarge = false
    /// The response being written says `Connection: close`.
    private(set) var closesAfterResponse = false
    /// The server has said its last word; it waits for the client to close, dropping what arrives.
    private(set) var lingering = false

    /// Bytes arrived from the client.
    mutating func bytesArrived() -> BytesAction {
        if lingering { return .drop }
        if reading == .betweenRequests { reading = .head }
        return .forward
    }

    /// A read from the socket ended, every byte it brought decoded: a head it began and did not complete
    /// is timed from now. A request whose head arrives in the read it begins in — nearly every one —
    /// never starts the timer.
    func readEnded() -> Action {
        reading == .head && !lingering ? .startHeadTimer : .none
    }

    /// A whole request head was decoded.
    mutating func headReceived() -> Action {
        reading = .message
        return .cancelHeadTimer
    }

    /// The request's body ended.
    mutating func requestEnded() {
        if reading == .message { reading = .betweenRequests }
    }

    /// The decoder failed; Hummingbird answers 400 and closes. `headOverflow` when the head was too large.
    mutating func parseFailed(headOverflow: Bool) -> Action {
        headTooLarge = headTooLarge || headOverflow
        reading = .message
        return .cancelHeadTimer
    }

    /// A response head with `status` is being written; `closes` when it says `Connection: close`.
    mutating func responseHeadWritten(status: Int, closes: Bool) -> ResponseHeadAction {
        closesAfterResponse = closes
        if headTooLarge, status == 400 { return .answerHeadTooLarge }
        return .pass
    }

    /// The end of a response is being written.
    mutating func responseEnds() -> ResponseEndAction {
        guard closesAfterResponse, !lingering else { return .pass }
        lingering = true
        return .passThenFinish
    }

    /// The output is being closed (by Hummingbird, after a request that said `Connection: close`).
    mutating func outputClosing() -> Action {
        if lingering { return .none }
        lingering = true
        return .startLingerTimer
    }

    /// The head timer fired.
    mutating func headTimerFired() -> Action {
        guard reading == .head, !lingering else { return .none }
        lingering = true
        return .answerTimeoutThenFinish
    }

    /// The client closed its end.
    func inputClosed() -> Action {
        lingering ? .close : .none
    }

    /// The linger timer fired.
    func lingerTimerFired() -> Action {
        .close
    }
}
