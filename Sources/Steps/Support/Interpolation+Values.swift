import ObjectManager
import Scenarios

extension AttributeValue {
    /// A string value with `${name.attribute}` replaced; other values as they are.
    func interpolated(in context: ScenarioContext) throws -> AttributeValue {
        switch self {
        case .string(let text): .string(try context.interpolate(text))
        case .json(let json): .json(try json.interpolated(in: context))
        default: self
        }
    }
}

extension [String: AttributeValue] {
    func interpolated(in context: ScenarioContext) throws -> [String: AttributeValue] {
        try mapValues { try $0.interpolated(in: context) }
    }
}
