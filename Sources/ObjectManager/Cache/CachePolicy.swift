/// How a request uses the response cache (the NSURLRequestCachePolicy values RestKit apps used).
public enum CachePolicy: String, Sendable, Hashable, Codable, CaseIterable {
    /// Serve a fresh cached response (by `Cache-Control: max-age`), otherwise load and cache.
    case useProtocolCachePolicy = "use protocol policy"
    /// Serve any cached response, however old; load only when nothing is cached.
    case returnCacheDataElseLoad = "return cache data else load"
    /// Serve a cached response or fail; never touch the network.
    case returnCacheDataDontLoad = "return cache data don't load"
    /// Always load (and cache the fresh response).
    case reloadIgnoringCacheData = "reload ignoring cache"
}
