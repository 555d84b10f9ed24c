/// Checks a mapping against a source object, RestKit `RKMappingTest` style: state expectations, then ``verify()``.
///
/// ```swift
/// var test = MappingTest(mapping: articleMapping, sourceObject: json, model: model, keyPath: "article")
/// test.expect(from: "title", to: "title", value: "RestKit Unit Testing")
/// test.expect(from: "tags", to: "tags")
/// try test.verify()   // throws every unmet expectation at once
/// ```
public struct MappingTest: Sendable {
    /// What a mapped value must be.
    public enum Check: Sendable {
        /// Mapped at all (a value was produced; null only when the source is null).
        case mapped
        /// Equal to this value (compared after converting it to the attribute's type).
        case value(AttributeValue)
        /// Accepted by this predicate.
        case passing(@Sendable (AttributeValue) -> Bool)
    }

    /// One expectation: a source key path, a destination key path and what the destination must hold.
    public struct Expectation: Sendable {
        /// The key path in the source object.
        public var sourceKeyPath: String
        /// The attribute key path the value must be mapped to.
        public var destinationKeyPath: String
        /// What the mapped value must be.
        public var check: Check
    }

    /// The mapping under test.
    public let mapping: EntityMapping
    /// The JSON the mapping is applied to.
    public let sourceObject: JSONValue
    /// The entity model the mapping's entity belongs to.
    public let model: EntityModel
    /// Where in `sourceObject` the mapped object sits (`article`); nil for the whole object.
    public let keyPath: String?
    /// The expectations stated so far, in order.
    public private(set) var expectations: [Expectation] = []

    /// Makes a test of `mapping` applied to `sourceObject`, with no expectations yet; see the example above.
    public init(mapping: EntityMapping, sourceObject: JSONValue, model: EntityModel, keyPath: String? = nil) {
        self.mapping = mapping
        self.sourceObject = sourceObject
        self.model = model
        self.keyPath = keyPath
    }

    /// Expects `sourceKeyPath` to be mapped to `destinationKeyPath`.
    public mutating func expect(from sourceKeyPath: String, to destinationKeyPath: String) {
        expectations.append(
            Expectation(sourceKeyPath: sourceKeyPath, destinationKeyPath: destinationKeyPath, check: .mapped)
        )
    }

    /// Expects `sourceKeyPath` to be mapped to `destinationKeyPath` with `value`.
    public mutating func expect(from sourceKeyPath: String, to destinationKeyPath: String, value: AttributeValue) {
        expectations.append(
            Expectation(sourceKeyPath: sourceKeyPath, destinationKeyPath: destinationKeyPath, check: .value(value))
        )
    }

    /// Expects `sourceKeyPath` to be mapped to `destinationKeyPath` with a value `predicate` accepts.
    public mutating func expect(
        from sourceKeyPath: String,
        to destinationKeyPath: String,
        passing predicate: @escaping @Sendable (AttributeValue) -> Bool
    ) {
        expectations.append(
            Expectation(
                sourceKeyPath: sourceKeyPath,
                destinationKeyPath: destinationKeyPath,
                check: .passing(predicate)
            )
        )
    }

    /// Maps the source object into a throwaway in-memory store and checks every expectation; throws all unmet ones at once.
    public func verify() throws(MappingTestError) {
        let object: ManagedObject
        let source: JSONValue
        do {
            let found: JSONValue? = if let keyPath { sourceObject[keyPath: keyPath] } else { sourceObject }
            guard let found else {
                throw MappingTestError.noSourceObject(keyPath: keyPath ?? "")
            }
            source = found
            let store = try EntityStore(model: model)
            let objects = try ObjectMapper().map(source, with: mapping, in: store.mainContext)
            guard let first = objects.first else { throw MappingTestError.noSourceObject(keyPath: keyPath ?? "") }
            object = first
            return try check(object, source: source)
        } catch let error as MappingTestError {
            throw error
        } catch {
            throw .mappingFailed(String(describing: error))
        }
    }

    private func check(_ object: ManagedObject, source: JSONValue) throws(MappingTestError) {
        let sourceObject = source.arrayValue?.first ?? source
        var failures: [String] = []
        for expectation in expectations {
            let name = "'\(expectation.sourceKeyPath)' -> '\(expectation.destinationKeyPath)'"
            guard let sourceValue = sourceObject[keyPath: expectation.sourceKeyPath] else {
                failures.append(
                    "Expected mapping \(name), but the source has no value at '\(expectation.sourceKeyPath)'."
                )
                continue
            }
            if !mapsKeyPath(expectation) {
                failures.append("Expected mapping \(name), but the mapping does not map it.")
                continue
            }
            guard let actual = object.value(forKeyPath: expectation.destinationKeyPath) else {
                failures.append(
                    "Expected mapping \(name), but '\(object.entity.name)' has no '\(expectation.destinationKeyPath)'."
                )
                continue
            }
            switch expectation.check {
            case .mapped:
                if actual.isNull, !sourceValue.isNull {
                    failures.append("Expected mapping \(name), but nothing was mapped.")
                }
            case .value(let expected):
                if !Self.same(actual, expected, dateFormats: mapping.dateFormats) {
                    failures.append("Expected mapping \(name) with value \(expected.quoted), got \(actual.quoted).")
                }
            case .passing(let predicate):
                if !predicate(actual) {
                    failures.append("Expected mapping \(name) with a value passing the test, got \(actual.quoted).")
                }
            }
        }
        if !failures.isEmpty { throw .unmetExpectations(failures) }
    }

    /// Whether the mapping maps the expectation's source onto its destination (attributes directly, or through a relationship mapping).
    private func mapsKeyPath(_ expectation: Expectation) -> Bool {
        if mapping.attributeMappings.contains(where: {
            $0.keyPath == expectation.sourceKeyPath && $0.attribute == expectation.destinationKeyPath
        }) {
            return true
        }
        return mapping.relationshipMappings.contains { relationship in
            expectation.sourceKeyPath == relationship.keyPath
                || expectation.sourceKeyPath.hasPrefix(relationship.keyPath + ".")
        }
    }

    private static func same(_ actual: AttributeValue, _ expected: AttributeValue, dateFormats: [DateFormat]) -> Bool {
        if actual == expected { return true }
        let type: AttributeType =
            switch actual {
            case .integer: .integer
            case .double: .double
            case .boolean: .boolean
            case .date: .date
            case .json: .json
            case .string, .null: .string
            }
        return (try? expected.converted(to: type, dateFormats: dateFormats)) == actual
    }
}
