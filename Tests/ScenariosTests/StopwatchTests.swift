import Testing

@testable import Scenarios

/// The stopwatch on the run's own clock (read directly) and on any other (a test's).
@Suite struct StopwatchTests {
    @Test func onTheContinuousClockItMeasuresTheTimeSinceItWasMade() {
        let before = ContinuousClock.now
        let stopwatch = Stopwatch(ContinuousClock())
        let first = stopwatch.elapsed
        let second = stopwatch.elapsed
        let outer = before.duration(to: .now)
        #expect(first >= .zero)
        #expect(second >= first)
        #expect(second <= outer)  // made after `before`, read before `outer`
    }

    @Test func onAnotherClockItMeasuresThatClocksTime() {
        let clock = TestClock()
        clock.advance(by: .seconds(5))  // before it is made: not counted
        let stopwatch = Stopwatch(clock)
        #expect(stopwatch.elapsed == .zero)
        clock.advance(by: .milliseconds(1500))
        #expect(stopwatch.elapsed == .milliseconds(1500))
    }
}
