import SharedValues
import Testing

/// The header naming the try and step that sent a request: read back exactly as written, and nothing else
/// read as one.
struct RequestOriginTests {
    @Test(arguments: [(UInt64(1), 0), (42, 7), (UInt64.max, Int.max)])
    func aWrittenOriginReadsBackTheSame(scenarioTry: UInt64, step: Int) {
        let origin = RequestOrigin(scenarioTry: scenarioTry, step: step)
        #expect(RequestOrigin(headerValue: origin.headerValue) == origin)
    }

    @Test(arguments: [
        "", ".", "1", "1.", ".1", "1..2", "1.2.3", "+1.2", "1.-2", "-1.2", "1 .2", "a.b", "1.2 ",
        "18446744073709551616.0", "1.9223372036854775808", "１.2",
    ])
    func anythingElseIsNotAnOrigin(_ text: String) {
        #expect(RequestOrigin(headerValue: text) == nil)
    }
}
