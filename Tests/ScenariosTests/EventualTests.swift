import TestSupport
import Testing

@testable import Scenarios

/// How the runner waits for a raced step's action: the value when it comes in time, `nil` at the limit, the
/// value again to a later wait, and never a waiter left hanging or a timer entry left behind.
struct EventualTests {
    @Test func aValueThatComesInTimeIsHandedToTheWaiterAndItsTimerEntryIsCancelled() async {
        let clock = TestClock()
        let timer = DeadlineTimer(clock: clock)
        let eventual = Eventual<Int>()
        async let waited = eventual.value(within: .seconds(1), on: timer)
        await clock.waitForSleepers()
        eventual.resolve(7)
        eventual.resolve(8)
        #expect(await waited == 7, "the first value wins")
        #expect(eventual.current == 7)
        // Its entry gone, the limit passing changes nothing; a later wait gets the value at once.
        clock.advance(by: .seconds(2))
        #expect(await eventual.value(within: .seconds(1), on: timer) == 7)
        timer.shutDown()
    }

    @Test func aWaiterGivesUpAtItsLimitAndALaterWaitStillGetsTheValue() async {
        let clock = TestClock()
        let timer = DeadlineTimer(clock: clock)
        let eventual = Eventual<String>()
        async let first = eventual.value(within: .seconds(1), on: timer)
        await clock.waitForSleepers()
        clock.advance(by: .seconds(1))
        #expect(await first == nil)
        #expect(eventual.current == nil)
        async let second = eventual.value(within: .seconds(5), on: timer)
        await clock.waitForSleepers()
        eventual.resolve("late")
        #expect(await second == "late")
        timer.shutDown()
    }

    /// A second waiter takes over: the first gets `nil` at once, and its limit passing never ends the second.
    @Test func aSecondWaiterTakesOverAndTheFirstGivesUpAtOnce() async {
        let clock = TestClock()
        let timer = DeadlineTimer(clock: clock)
        let eventual = Eventual<Int>()
        let firstEnded = Recorder<Int?>()
        let first = Task {
            let value = await eventual.value(within: .seconds(1), on: timer)
            firstEnded.append(value)
        }
        await clock.waitForSleepers()
        async let second = eventual.value(within: .seconds(10), on: timer)
        #expect(await eventually { firstEnded.all == [nil] })
        await first.value
        clock.advance(by: .seconds(1))
        await clock.waitForSleepers()
        eventual.resolve(3)
        #expect(await second == 3)
        timer.shutDown()
    }
}
