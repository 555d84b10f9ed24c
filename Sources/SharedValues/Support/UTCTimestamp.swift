package import Foundation

/// A date as an ISO 8601 timestamp in UTC to the second (`2026-11-29T01:28:00Z`), the form JSONEncoder's
/// `.iso8601` strategy writes, made from the C library's `gmtime_r`: Foundation's formatting sets up a
/// calendar and the current time zone the first time (about 2 M instructions, at the end of every run
/// that writes its state files).
///
/// ```swift
/// encoder.dateEncodingStrategy = UTCTimestamp.encodingStrategy
/// UTCTimestamp.string(from: Date(timeIntervalSince1970: 0))   // "1970-01-01T00:00:00Z"
/// ```
package enum UTCTimestamp {
    /// `date` to the second (rounded down), in UTC.
    package static func string(from date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        guard gmtime_r(&seconds, &parts) != nil else { return date.formatted(.iso8601) }
        func padded(_ value: Int32, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return padded(parts.tm_year + 1900, 4) + "-" + padded(parts.tm_mon + 1, 2) + "-" + padded(parts.tm_mday, 2)
            + "T" + padded(parts.tm_hour, 2) + ":" + padded(parts.tm_min, 2) + ":" + padded(parts.tm_sec, 2) + "Z"
    }

    /// JSONEncoder's date strategy writing ``string(from:)``.
    package static var encodingStrategy: JSONEncoder.DateEncodingStrategy {
        .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(string(from: date))
        }
    }
}
