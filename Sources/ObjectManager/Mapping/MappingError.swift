/// Why a JSON payload could not be mapped.
public enum MappingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The payload (or a nested value) is not an object or array of objects.
    case notAnObject(entity: String, found: String)
    /// A value did not convert to its attribute's type.
    case invalidValue(entity: String, attribute: String, keyPath: String, ConversionError)
    /// The store refused something (unknown entity, attribute, relationship…).
    case store(StoreError)

    public var description: String {
        switch self {
        case .notAnObject(let entity, let found):
            "Cannot map \(found) onto entity '\(entity)': expected an object or an array of objects."
        case .invalidValue(let entity, let attribute, let keyPath, let error):
            "Cannot map '\(keyPath)' onto '\(entity).\(attribute)': \(error)"
        case .store(let error):
            error.description
        }
    }
}
