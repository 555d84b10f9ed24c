import Foundation
import Testing

@testable import ObjectManager

/// `requestPath` is `path` — percent-decoded, trailing slashes dropped — for every kind of URL path.
struct URLRequestPathTests {
    static let urls = [
        "http://127.0.0.1:8080/restaurants", "http://127.0.0.1:8080/restaurants/12?page=2", "http://h/a%20b",
        "http://h/a/", "http://h/", "http://h", "http://h/a;b?q=1", "http://h//x//", "http://h/a%2Fb/c",
        "http://h/%E2%82%AC", "http://h/a?x=%20", "http://h/./a/../b", "http://h/a#frag", "http://h/a%25",
        "http://h/%41", "http://h/caf%C3%A9/", "http://h/a//", "http://h/é",
    ]

    @Test(arguments: urls)
    func isThePathOfTheURL(text: String) throws {
        let url = try #require(URL(string: text))
        #expect(url.requestPath == url.path)
    }
}
