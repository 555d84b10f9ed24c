import Foundation
import Testing

@testable import SharedValues

struct RecentBodiesTests {
    func body(_ text: String) -> Data { Data(text.utf8) }

    /// The same bytes again give the value parsed before, and nothing more is held.
    @Test func theSameBytesAgainAreNotHeldTwice() throws {
        let bodies = RecentBodies()
        let text = #"[{"id": 1, "name": "One"}, {"id": 2, "name": "Two"}]"#
        let first = try bodies.value(of: body(text)).get()
        let again = try bodies.value(of: body(text)).get()
        #expect(first == [["id": 1, "name": "One"], ["id": 2, "name": "Two"]])
        #expect(again == first)
        #expect(bodies.count == 1)
    }

    /// A body of the same length that differs in one byte is parsed, never answered with the one held
    /// (fails when bodies are told apart by their length alone).
    @Test func aBodyDifferingInOneByteIsParsed() throws {
        let bodies = RecentBodies()
        #expect(try bodies.value(of: body(#"{"id": 1}"#)).get() == ["id": 1])
        #expect(try bodies.value(of: body(#"{"id": 2}"#)).get() == ["id": 2])
        #expect(try bodies.value(of: body(#"{"ib": 1}"#)).get() == ["ib": 1])
        #expect(try bodies.value(of: body(#"{"id": 1}"#)).get() == ["id": 1])
        #expect(bodies.count == 3)
    }

    /// At most `capacity` bodies are held, the oldest replaced first; a body replaced is parsed again, to
    /// the same value.
    @Test func theOldestBodyIsReplacedFirst() throws {
        let bodies = RecentBodies()
        for number in 0..<(RecentBodies.capacity * 3) {
            #expect(try bodies.value(of: body("[\(number)]")).get() == [.int(number)])
            #expect(bodies.count == min(number + 1, RecentBodies.capacity))
        }
        #expect(try bodies.value(of: body("[0]")).get() == [0])
        #expect(bodies.count == RecentBodies.capacity)
    }

    /// A body longer than the limit is parsed every time and never held.
    @Test func aBodyOverTheLimitIsNotHeld() throws {
        let bodies = RecentBodies()
        let long = "[" + String(repeating: "1, ", count: RecentBodies.bodyLimit / 3) + "2]"
        #expect(long.utf8.count > RecentBodies.bodyLimit)
        guard case .array(let elements) = try bodies.value(of: body(long)).get() else {
            Issue.record("not an array")
            return
        }
        #expect(elements.count == RecentBodies.bodyLimit / 3 + 1)
        #expect(bodies.count == 0)
    }

    /// A body that is not JSON gives the same error each time it comes.
    @Test func aBodyThatIsNotJSONGivesItsErrorAgain() {
        let bodies = RecentBodies()
        let text = "<html>Service unavailable.</html>"
        let expected = Result { () throws(JSONParseError) in try JSONValue(parsing: body(text)) }
        guard case .failure(let error) = expected else {
            Issue.record("parsed")
            return
        }
        for _ in 0..<2 {
            #expect(throws: error) { try bodies.value(of: body(text)).get() }
        }
        #expect(bodies.count == 1)
    }

    /// Tasks parsing at once, some the same bodies, each get their own body's value.
    @Test func concurrentParsesEachGetTheirBodysValue() async {
        let bodies = RecentBodies()
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for task in 0..<16 {
                group.addTask {
                    var wrong = 0
                    for round in 0..<200 {
                        let number = (task + round) % (RecentBodies.capacity + 3)
                        if (try? bodies.value(of: Data(#"{"n": \#(number)}"#.utf8)).get()) != ["n": .int(number)] {
                            wrong += 1
                        }
                    }
                    return wrong
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0)
        #expect(bodies.count <= RecentBodies.capacity)
    }

    /// `JSONValue(parsingBody:)` gives what `JSONValue(parsing:)` gives, held or not.
    @Test func parsingABodyEqualsParsing() throws {
        for text in [#"{"a": [1, 2.5, "x", null, true]}"#, "[]", "7", #""s""#] {
            let parsed = try JSONValue(parsing: body(text))
            #expect(try JSONValue(parsingBody: body(text)) == parsed)
            #expect(try JSONValue(parsingBody: body(text)) == parsed)
        }
    }
}
