import TestSupport
import Testing

@testable import Scenarios

/// One sleeping driver for every deadline of a run: due actions run in deadline order, cancelled ones
/// never, an earlier deadline takes over from a driver sleeping past it, and shut-down ends it all.
struct DeadlineTimerTests {
    @Test func runsDueActionsInDeadlineOrderAndNeverCancelledOnes() async {
        let clock = TestClock()
        let timer = DeadlineTimer(clock: clock)
        let fired = Recorder<String>()
        timer.schedule(after: .seconds(1)) { fired.append("1 s") }
        let cancelled = timer.schedule(after: .seconds(2)) { fired.append("2 s") }
        timer.schedule(after: .seconds(3)) { fired.append("3 s") }
        timer.cancel(cancelled)
        await clock.waitForSleepers()
        #expect(clock.sleeperCount == 1, "one driver sleeps for all three deadlines")
        clock.advance(by: .seconds(1))
        #expect(await eventually { fired.all == ["1 s"] })
        await clock.waitForSleepers()
        clock.advance(by: .seconds(5))
        #expect(await eventually { fired.all == ["1 s", "3 s"] })
        timer.shutDown()
    }

    @Test func anEarlierDeadlineTakesOverFromADriverSleepingPastIt() async {
        let clock = TestClock()
        let timer = DeadlineTimer(clock: clock)
        let fired = Recorder<String>()
        timer.schedule(after: .seconds(10)) { fired.append("late") }
        await clock.waitForSleepers()
        timer.schedule(after: .seconds(1)) { fired.append("early") }
        await clock.waitForSleepers()
        clock.advance(by: .seconds(1))
        #expect(await eventually { fired.all == ["early"] })
        await clock.waitForSleepers()
        clock.advance(by: .seconds(9))
        #expect(await eventually { fired.all == ["early", "late"] })
        #expect(await eventually { clock.sleeperCount == 0 }, "with nothing scheduled, no driver sleeps")
        timer.shutDown()
    }

    @Test func shutDownEndsTheDriverAndDropsWhatIsPending() async {
        let clock = TestClock()
        let timer = DeadlineTimer(clock: clock)
        let fired = Recorder<String>()
        timer.schedule(after: .seconds(1)) { fired.append("pending") }
        await clock.waitForSleepers()
        timer.shutDown()
        #expect(await eventually { clock.sleeperCount == 0 })
        timer.schedule(after: .zero) { fired.append("after shut-down") }
        clock.advance(by: .seconds(2))
        #expect(fired.all.isEmpty)
    }

}
