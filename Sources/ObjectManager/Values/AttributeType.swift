/// The type of an entity attribute; decides conversion on mapping and the SQLite column affinity.
public enum AttributeType: String, Sendable, Hashable, CaseIterable, Codable {
    case integer
    case double
    case string
    case boolean
    case date
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
