import Foundation
import TestSupport
import Testing

@testable import ObjectManager

/// The line the request log shows of each request: its method and target, then what came of it.
struct RequestRecordTests {
    static let url = URL(literal: "http://127.0.0.1:8080/restaurants/5%20a?page=2")

    static func record(
        response status: Int? = nil,
        cached: Bool = false,
        objects: Int = 0,
        mapping: String? = nil,
        error: String? = nil
    ) -> RequestRecord {
        RequestRecord(
            method: .get,
            url: url,
            response: status.map { HTTPResponse(status: $0, url: url, isFromCache: cached) },
            mappedObjectCount: objects,
            mapping: mapping,
            errorDescription: error,
            duration: .zero
        )
    }

    @Test func eachOutcomeHasItsLine() {
        let target = "GET /restaurants/5 a?page=2"
        #expect(Self.record(response: 200, objects: 20).description == "\(target) → 200 (20 objects)")
        #expect(Self.record(response: 201, objects: 1).description == "\(target) → 201 (1 object)")
        #expect(Self.record(response: 200, cached: true, objects: 2).description == "\(target) → cache 200 (2 objects)")
        #expect(Self.record(response: 204).description == "\(target) → 204")
        #expect(
            Self.record(response: 200, mapping: "no response descriptor matches GET /x; nothing mapped").description
                == "\(target) → 200 (no response descriptor matches GET /x; nothing mapped)"
        )
        #expect(Self.record(response: 422, error: "Unprocessable").description == "\(target) → 422 (Unprocessable)")
        #expect(Self.record(error: "connection refused").description == "\(target) → failed: connection refused")
    }

    /// Numbers written digit by digit: every length, and the same as Swift writes them.
    @Test func numbersReadAsWritten() {
        let target = "GET /restaurants/5 a?page=2"
        for count in [9, 10, 99, 100, 1_000, 123_456_789, Int.max] {
            #expect(Self.record(response: 200, objects: count).description == "\(target) → 200 (\(count) objects)")
        }
        for status in [0, 100, 599, 1_000, -1, Int.min] {
            #expect(Self.record(response: status).description == "\(target) → \(status)")
        }
    }
}
