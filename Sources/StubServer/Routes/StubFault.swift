/// A way for a stub route to fail at the connection level instead of answering.
package enum StubFault: String, Sendable, Hashable, CaseIterable, Codable {
    /// Close the connection abruptly (`SO_LINGER` 0), so the client sees a reset and no response.
    case connectionReset = "connection reset"
    /// Close the connection without writing a single response byte.
    case emptyResponse = "empty response"
    /// Never answer; keep the connection open until the client gives up or the server stops.
    case timeout
}
