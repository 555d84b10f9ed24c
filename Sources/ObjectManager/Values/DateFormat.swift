public import Foundation
import Synchronization

/// A way to read dates out of JSON strings during mapping.
public enum DateFormat: Sendable, Hashable, CustomStringConvertible {
    /// ISO 8601 date-time, with or without fractional seconds (`2012-03-01T12:00:00Z`), or a bare date (`2012-03-01`).
    case iso8601
    /// A `DateFormatter` pattern read with the `en_US_POSIX` locale in UTC, e.g. `MM/dd/yyyy`.
    case pattern(String)

    public var description: String {
        switch self {
        case .iso8601: "ISO 8601"
        case .pattern(let pattern): pattern
        }
    }

    /// The date `text` denotes in this format, or nil.
    public func date(from text: String) -> Date? {
        switch self {
        case .iso8601:
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(trimmed) {
                return date
            }
            if let date = try? Date.ISO8601FormatStyle().parse(trimmed) {
                return date
            }
            if trimmed.count == 10 {
                return Self.formatted(with: "yyyy-MM-dd") { $0.date(from: trimmed) }
            }
            return nil
        case .pattern(let pattern):
            return Self.formatted(with: pattern) { $0.date(from: text) }
        }
    }

    /// ISO 8601 text of a date in UTC, with milliseconds only when the date has a fraction of a second.
    static func iso8601String(from date: Date, alwaysFractional: Bool = false) -> String {
        let hasFraction = date.timeIntervalSince1970.rounded(.down) != date.timeIntervalSince1970
        return date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: alwaysFractional || hasFraction))
    }

    private static let formatters = Mutex<[String: DateFormatter]>([:])

    private static func formatted<T: Sendable>(with pattern: String, _ body: (DateFormatter) -> T) -> T {
        formatters.withLock { cache in
            let formatter: DateFormatter
            if let cached = cache[pattern] {
                formatter = cached
            } else {
                formatter = DateFormatter()
                formatter.locale = Locale(identifier: "en_US_POSIX")
                formatter.timeZone = TimeZone(identifier: "UTC")
                formatter.dateFormat = pattern
                cache[pattern] = formatter
            }
            return body(formatter)
        }
    }
}
