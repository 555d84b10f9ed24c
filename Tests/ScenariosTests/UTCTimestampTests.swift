import Foundation
import SharedValues
import Testing

/// `UTCTimestamp` writes what JSONEncoder's `.iso8601` strategy writes, without Foundation's calendar.
struct UTCTimestampTests {
    @Test(arguments: [0, 951_782_400, 951_868_799.999, 1_700_000_000.75, 4_102_444_799, -1.5])
    func aDateIsWrittenAsFoundationWritesIt(seconds: Double) throws {
        let date = Date(timeIntervalSince1970: seconds)
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let foundation = String(decoding: try encoder.encode([date]), as: UTF8.self)
        encoder.dateEncodingStrategy = UTCTimestamp.encodingStrategy
        let ours = String(decoding: try encoder.encode([date]), as: UTF8.self)
        #expect(ours == foundation)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        #expect(
            try decoder.decode([Date].self, from: Data(ours.utf8)) == [
                Date(timeIntervalSince1970: seconds.rounded(.down))
            ]
        )
    }

    @Test func leapDaysAndTheEpochAreExact() {
        #expect(UTCTimestamp.string(from: Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
        #expect(UTCTimestamp.string(from: Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29T00:00:00Z")
    }
}
