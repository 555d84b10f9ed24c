import Scenarios
import TestSupport
import Testing

struct ContextTests {
    let context = ScenarioContext(scenario: ScenarioID(file: "s.yml", name: "A"), clock: TestClock())

    @Test func interpolatesBoundNamesAndKeyPaths() throws {
        context.bind("place", to: ["restaurantID": "12345", "name": "Chez Nous"])
        context.bind("title", to: "Whatever")
        #expect(try context.interpolate("/restaurants/${place.restaurantID}/${title}") == "/restaurants/12345/Whatever")
        #expect(try context.interpolate("no references") == "no references")
    }

    @Test func unresolvableReferencesAreErrorsNamingTheStep() {
        context.bind("title", to: "Whatever")
        context.beginStep("submit review")
        #expect(throws: ScenarioContextError.unboundName("place", in: "${place.id}", step: "submit review")) {
            try context.interpolate("/r/${place.id}")
        }
        #expect(
            ScenarioContextError.unknownAttribute("length", of: "title", in: "${title.length}", step: "submit review")
                .description == "'title' has no attribute 'length' in '${title.length}' of step 'submit review'."
        )
        #expect(
            throws: ScenarioContextError.unknownAttribute(
                "length",
                of: "title",
                in: "${title.length}",
                step: "submit review"
            )
        ) {
            try context.interpolate("${title.length}")
        }
        #expect(throws: ScenarioContextError.malformedReference(in: "${title", step: "submit review")) {
            try context.interpolate("${title")
        }
    }

    @Test func typedStorage() {
        enum Journal: ContextKey { typealias Value = [String] }
        enum Other: ContextKey { typealias Value = [String] }
        #expect(context[Journal.self] == nil)
        context[Journal.self] = ["GET /reviews"]
        #expect(context[Journal.self] == ["GET /reviews"])
        #expect(context[Other.self] == nil)
    }

    @Test func logGoesToTheSink() {
        let lines = Recorder<String>()
        let context = ScenarioContext(scenario: ScenarioID(file: "s.yml", name: "A")) { lines.append($0) }
        context.log("one")
        context.log("two")
        #expect(lines.all == ["one", "two"])
    }
}

struct TestClockTests {
    @Test func sleepersResumeWhenDue() async throws {
        let clock = TestClock()
        let woke = Recorder<Duration>()
        let sleeper = Task {
            try await clock.sleep(for: .seconds(2))
            woke.append(clock.now.offset)
        }
        await clock.waitForSleepers()
        clock.advance(by: .seconds(1))
        #expect(woke.all.isEmpty)
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .seconds(1))
        try await sleeper.value
        #expect(woke.all == [.seconds(2)])
        #expect(clock.sleeperCount == 0)
    }

    @Test func cancelledSleepersThrow() async {
        let clock = TestClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(1)) }
        await clock.waitForSleepers()
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test func pastDeadlinesReturnAtOnce() async throws {
        let clock = TestClock()
        clock.advance(by: .seconds(5))
        try await clock.sleep(until: TestClock.Instant(offset: .seconds(1)))
        #expect(clock.now.offset == .seconds(5))
    }
}
