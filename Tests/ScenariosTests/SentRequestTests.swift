import Scenarios
import Testing

/// The distinct requests a scenario sent, in the order first sent: the few compared one by one and the
/// many through a set give the same list.
struct SentRequestTests {
    /// The distinct requests of `all`, found the plain way.
    static func reference(_ all: [SentRequest]) -> [SentRequest] {
        var kept: [SentRequest] = []
        for request in all where !kept.contains(request) { kept.append(request) }
        return Array(kept.prefix(SentRequest.perScenario))
    }

    @Test(arguments: [0, 1, 3, 7, 8, 9, 20, 200])
    func distinctRequestsKeepTheirFirstOrder(count: Int) {
        // Each path twice or three times, spread out, and two methods for some.
        let all = (0..<count * 3).map { index in
            SentRequest(method: index % 5 == 0 ? "POST" : "GET", path: "/r/\((index * 7) % max(count, 1))")
        }
        #expect(SentRequest.distinct(all) == Self.reference(all))
    }

    @Test func atMostAScenariosWorthAreKept() {
        let all = (0..<(SentRequest.perScenario + 50)).map { SentRequest(method: "GET", path: "/r/\($0)") }
        #expect(SentRequest.distinct(all).count == SentRequest.perScenario)
        #expect(SentRequest.distinct(all) == Array(all.prefix(SentRequest.perScenario)))
    }
}
