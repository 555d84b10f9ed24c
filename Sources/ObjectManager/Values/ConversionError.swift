/// Why a value could not be converted to an attribute type.
public enum ConversionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The value has no meaning as that type (`'abc'` as an integer).
    case cannotConvert(value: String, to: AttributeType)
    /// A string matched none of the date formats.
    case unparsableDate(String, formats: [DateFormat])

    public var description: String {
        switch self {
        case .cannotConvert(let value, let type):
            "Cannot convert \(value) to \(type.rawValue)."
        case .unparsableDate(let text, let formats):
            "Cannot read '\(text)' as a date (formats: \(formats.map(\.description).joined(separator: ", ")))."
        }
    }
}
