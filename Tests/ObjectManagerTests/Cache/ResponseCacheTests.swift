import Foundation
import TestSupport
import Testing

@testable import ObjectManager

struct ResponseCacheTests {
    let url = URL(literal: "http://127.0.0.1:8080/restaurants")

    @Test func storesAndLooksUpByMethodAndURL() {
        let cache = ResponseCache()
        cache.store(CachedResponse(method: .get, url: url, status: 200, headers: [], body: Data("[]".utf8)))
        #expect(
            cache.cachedResponse(for: .get, url: URL(string: "http://127.0.0.1:8080/restaurants#x")!)?.body
                == Data("[]".utf8)
        )
        #expect(cache.cachedResponse(for: .post, url: url) == nil)
        #expect(cache.cachedResponse(for: .get, url: URL(string: "http://127.0.0.1:8080/restaurants?page=2")!) == nil)
        cache.removeAll()
        #expect(cache.count == 0)
    }

    @Test(arguments: [
        "http://127.0.0.1:8080/restaurants", "http://127.0.0.1:8080/restaurants?page=2&q=a%20b",
        "http://LOCALHOST:8080/r",
        "http://127.0.0.1:8080", "http://127.0.0.1:8080?q=1", "http://h/r#frag", "HTTP://h/r", "http://h/R/S?Q=T",
        "http://user@Host/a", "file:///tmp/x",
    ])
    func theQuickCheckForNormalizedURLsAgreesWithTheFullNormalization(_ text: String) throws {
        let url = try #require(URL(string: text))
        #expect(ResponseCache.normalize(url) == ResponseCache.normalizedThroughComponents(url))
    }

    @Test func cachesOnlySuccessfulGETsThatAllowIt() {
        let cache = ResponseCache()
        cache.storeIfCacheable(HTTPResponse(status: 200, url: url), method: .post)
        cache.storeIfCacheable(HTTPResponse(status: 500, url: url), method: .get)
        cache.storeIfCacheable(
            HTTPResponse(status: 200, headers: [HTTPHeader(name: "Cache-Control", value: "no-store")], url: url),
            method: .get
        )
        #expect(cache.count == 0)
        cache.storeIfCacheable(HTTPResponse(status: 200, url: url), method: .get)
        #expect(cache.count == 1)
    }

    @Test func freshnessFollowsMaxAge() {
        let stored = Date(timeIntervalSince1970: 1000)
        let response = CachedResponse(
            method: .get,
            url: url,
            status: 200,
            headers: [HTTPHeader(name: "Cache-Control", value: "public, max-age=60")],
            body: Data(),
            storedAt: stored
        )
        #expect(response.isFresh(at: stored.addingTimeInterval(30)))
        #expect(!response.isFresh(at: stored.addingTimeInterval(61)))
        var noHeader = response
        noHeader.headers = []
        #expect(!noHeader.isFresh(at: stored))
    }
}
