/// The type of an entity attribute; decides conversion on mapping and the SQLite column affinity.
public enum AttributeType: String, Sendable, Hashable, CaseIterable, Codable {
    /// A whole number (`Int`).
    case integer
    /// A floating-point number (`Double`).
    case double
    /// Text.
    case string
    /// A Boolean.
    case boolean
    /// A point in time; stored as ISO 8601 text.
    case date
    /// Any JSON value (arrays and objects included), stored as JSON text.
    case json

    /// The SQLite column type of this attribute type (dates and JSON are stored as text).
    var sqlType: String {
        switch self {
        case .integer, .boolean: "INTEGER"
        case .double: "REAL"
        case .string, .date, .json: "TEXT"
        }
    }
}
