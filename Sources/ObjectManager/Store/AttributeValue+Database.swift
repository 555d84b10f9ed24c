import Foundation
import GRDB

extension AttributeValue {
    /// The SQLite value stored for this attribute value (booleans as 0/1, dates as ISO 8601 text with milliseconds, JSON as text).
    var databaseValue: DatabaseValue {
        switch self {
        case .null: .null
        case .integer(let int): Int64(int).databaseValue
        case .double(let double): double.databaseValue
        case .string(let string): string.databaseValue
        case .boolean(let bool): Int64(bool ? 1 : 0).databaseValue
        case .date(let date): DateFormat.iso8601String(from: date, alwaysFractional: true).databaseValue
        case .json(let json): json.text.databaseValue
        }
    }

    /// The attribute value of a stored SQLite value read as `type`.
    init(databaseValue: DatabaseValue, as type: AttributeType) {
        let raw: AttributeValue =
            switch databaseValue.storage {
            case .null: .null
            case .int64(let int): .integer(Int(int))
            case .double(let double): .double(double)
            case .string(let string): .string(string)
            case .blob(let data): .string(String(decoding: data, as: UTF8.self))
            }
        if type == .json, case .string(let text) = raw {
            self = (try? JSONValue(parsing: Data(text.utf8))).map(AttributeValue.json) ?? raw
            return
        }
        self = (try? raw.converted(to: type)) ?? raw
    }
}
