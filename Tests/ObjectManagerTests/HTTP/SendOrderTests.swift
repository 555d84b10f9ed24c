import Foundation
import ObjectManager
import Testing

/// A request's place among the manager's requests is taken when it is started, not when its task first
/// runs: two steps' background requests keep the steps' order, whichever task runs first (`expect
/// response` judges the one sent last).
struct SendOrderTests {
    @Test func aReservedPlaceWinsOverTheOrderTheRequestsRunIn() async throws {
        let transport = InMemoryTransport { request in
            HTTPResponse(
                status: request.url.path == "/422" ? 422 : 200,
                headers: [],
                body: Data("{}".utf8),
                url: request.url
            )
        }
        let base = try #require(URL(string: "http://localhost"))
        let manager = ObjectManager(baseURL: base, client: HTTPClient(baseURL: base, transport: transport))
        let first = manager.reserveSendOrder()  // the step that started /slow
        let second = manager.reserveSendOrder()  // the step after it, that started /422
        // The second one's task runs first: it must still be the one sent last.
        _ = try? await manager.perform(manager.request(atPath: "/422"), sendOrder: second)
        #expect(manager.lastSentRecord?.status == 422)
        _ = try await manager.perform(manager.request(atPath: "/slow"), sendOrder: first)
        #expect(manager.lastSentRecord?.status == 422)
        #expect(manager.lastSentRecord?.sendOrder == 2)
        // A request sent on its own takes the next place.
        _ = try await manager.perform(manager.request(atPath: "/slow"))
        #expect(manager.lastSentRecord?.sendOrder == 3)
        await manager.shutDown()
    }
}
