import Foundation
import Testing

@testable import ObjectManager

struct ResponseCacheTests {
    let url = URL(string: "http://127.0.0.1:8080/restaurants")!

    @Test func storesAndLooksUpByMethodAndURL() {
        let cache = ResponseCache()
        cache.store(CachedResponse(method: .get, url: url, status: 200, headers: [], body: Data("[]".utf8)))
        #expect(cache.cachedResponse(for: .get, url: URL(string: "http://127.0.0.1:8080/restaurants#x")!)?.body == Data("[]".utf8))
        #expect(cache.cachedResponse(for: .post, url: url) == nil)
        #expect(cache.cachedResponse(for: .get, url: URL(string: "http://127.0.0.1:8080/restaurants?page=2")!) == nil)
        cache.removeAll()
        #expect(cache.count == 0)
    }

    @Test func cachesOnlySuccessfulGETsThatAllowIt() {
        let cache = ResponseCache()
        cache.storeIfCacheable(HTTPResponse(status: 200, url: url), method: .post)
        cache.storeIfCacheable(HTTPResponse(status: 500, url: url), method: .get)
        cache.storeIfCacheable(HTTPResponse(status: 200, headers: [HTTPHeader(name: "Cache-Control", value: "no-store")], url: url), method: .get)
        #expect(cache.count == 0)
        cache.storeIfCacheable(HTTPResponse(status: 200, url: url), method: .get)
        #expect(cache.count == 1)
    }

    @Test func freshnessFollowsMaxAge() {
        let stored = Date(timeIntervalSince1970: 1000)
        let response = CachedResponse(
            method: .get, url: url, status: 200,
            headers: [HTTPHeader(name: "Cache-Control", value: "public, max-age=60")], body: Data(), storedAt: stored
        )
        #expect(response.isFresh(at: stored.addingTimeInterval(30)))
        #expect(!response.isFresh(at: stored.addingTimeInterval(61)))
        var noHeader = response
        noHeader.headers = []
        #expect(!noHeader.isFresh(at: stored))
    }
}
