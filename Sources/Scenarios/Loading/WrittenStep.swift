/// A step as written, without where: its definition, its arguments' nodes (scalars with their quoting,
/// keys in order; no locations) and the names bound before it. What identifies a step built once per
/// file (``StepDefinition/buildsOncePerFile``): hashed and compared in place, with no text made.
struct WrittenStep: Hashable {
    let definition: String
    let arguments: StepArguments
    let bound: Set<String>

    static func == (lhs: WrittenStep, rhs: WrittenStep) -> Bool {
        lhs.definition == rhs.definition && lhs.bound == rhs.bound && same(lhs.arguments, rhs.arguments)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(definition)
        hasher.combine(bound)
        Self.hash(arguments, into: &hasher)
    }

    private static func same(_ lhs: StepArguments, _ rhs: StepArguments) -> Bool {
        switch (lhs.content, rhs.content) {
        case (.none, .none):
            return true
        case (.scalar(let left, let leftIsPlain), .scalar(let right, let rightIsPlain)):
            return leftIsPlain == rightIsPlain && left == right
        case (.sequence(let left), .sequence(let right)):
            return left.count == right.count && zip(left, right).allSatisfy { same($0, $1) }
        case (.mapping(let left), .mapping(let right)):
            return left.count == right.count
                && zip(left, right).allSatisfy { $0.key == $1.key && same($0.value, $1.value) }
        default:
            return false
        }
    }

    private static func hash(_ node: StepArguments, into hasher: inout Hasher) {
        switch node.content {
        case .none:
            hasher.combine(0 as UInt8)
        case .scalar(let text, let isPlain):
            hasher.combine(isPlain ? 1 as UInt8 : 2)
            hasher.combine(text)
        case .sequence(let items):
            hasher.combine(3 as UInt8)
            hasher.combine(items.count)
            for item in items { hash(item, into: &hasher) }
        case .mapping(let entries):
            hasher.combine(4 as UInt8)
            hasher.combine(entries.count)
            for entry in entries {
                hasher.combine(entry.key)
                hash(entry.value, into: &hasher)
            }
        }
    }
}
