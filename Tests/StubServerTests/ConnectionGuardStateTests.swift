import Testing

@testable import StubServer

/// The connection guard's state machine, event by event.
struct ConnectionGuardStateTests {
    @Test func aHeadIncompleteAtTheEndOfARead() {
        var state = ConnectionGuardState()
        #expect(state.readEnded() == .none)
        #expect(state.bytesArrived() == .forward)
        #expect(state.readEnded() == .startHeadTimer)
        #expect(state.bytesArrived() == .forward)
        #expect(state.readEnded() == .startHeadTimer)  // the guard keeps the timer it has
        #expect(state.headReceived() == .cancelHeadTimer)
        #expect(state.bytesArrived() == .forward)
        #expect(state.readEnded() == .none)
        #expect(state.headTimerFired() == .none)
        state.requestEnded()
        #expect(state.responseHeadWritten(status: 200, closes: false) == .pass)
        #expect(state.responseEnds() == .pass)
        #expect(state.bytesArrived() == .forward)
        #expect(state.readEnded() == .startHeadTimer)
    }

    /// A request whose head arrives in the read that began it — nearly every one — never starts the timer.
    @Test func aHeadWholeInItsFirstReadStartsNoTimer() {
        var state = ConnectionGuardState()
        #expect(state.bytesArrived() == .forward)
        #expect(state.headReceived() == .cancelHeadTimer)
        state.requestEnded()
        #expect(state.readEnded() == .none)
    }

    @Test func aHeadNotCompleteWhenTheTimerFiresIsAnswered408ThenLingers() {
        var state = ConnectionGuardState()
        _ = state.bytesArrived()
        #expect(state.headTimerFired() == .answerTimeoutThenFinish)
        #expect(state.lingering)
        #expect(state.bytesArrived() == .drop)
        #expect(state.headTimerFired() == .none)
        #expect(state.inputClosed() == .close)
        #expect(state.lingerTimerFired() == .close)
    }

    /// A head over the limits turns Hummingbird's 400 into 431; any other parse error keeps 400. Either way
    /// the connection is finished after the answer.
    @Test(arguments: [(true, ConnectionGuardState.ResponseHeadAction.answerHeadTooLarge), (false, .pass)])
    func aParseErrorIsAnsweredThenTheConnectionFinished(
        headOverflow: Bool,
        expected: ConnectionGuardState.ResponseHeadAction
    ) {
        var state = ConnectionGuardState()
        _ = state.bytesArrived()
        #expect(state.parseFailed(headOverflow: headOverflow) == .cancelHeadTimer)
        #expect(state.responseHeadWritten(status: 400, closes: true) == expected)
        #expect(state.responseEnds() == .passThenFinish)
        #expect(state.bytesArrived() == .drop)
        #expect(state.outputClosing() == .none)
    }

    @Test func aResponseThatClosesFinishesTheConnection() {
        var state = ConnectionGuardState()
        _ = state.bytesArrived()
        _ = state.headReceived()
        #expect(state.responseHeadWritten(status: 413, closes: true) == .pass)
        #expect(state.responseEnds() == .passThenFinish)
        #expect(state.responseEnds() == .pass)
    }

    @Test func hummingbirdClosingTheOutputStartsTheLinger() {
        var state = ConnectionGuardState()
        #expect(state.inputClosed() == .none)
        #expect(state.outputClosing() == .startLingerTimer)
        #expect(state.outputClosing() == .none)
        #expect(state.bytesArrived() == .drop)
        #expect(state.inputClosed() == .close)
    }
}
