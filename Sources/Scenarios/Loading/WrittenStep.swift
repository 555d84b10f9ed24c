import Glibc

/// A step as written, without where: its definition, its arguments' nodes (scalars with their quoting,
/// keys in order; no locations) and the names bound before it. What identifies a step built once per
/// file (``StepDefinition/buildsOncePerFile``): hashed and compared in place, with no text made, and by
/// their UTF-8 bytes (two texts alike only after Unicode normalization are two steps, each built: a
/// string's own hash normalizes, and costs several times more).
struct WrittenStep: Hashable {
    let definition: String
    let arguments: StepArguments
    let bound: Set<String>

    static func == (lhs: WrittenStep, rhs: WrittenStep) -> Bool {
        sameBytes(lhs.definition, rhs.definition) && lhs.bound == rhs.bound && same(lhs.arguments, rhs.arguments)
    }

    func hash(into hasher: inout Hasher) {
        Self.combineBytes(definition, into: &hasher)
        hasher.combine(bound)
        Self.hash(arguments, into: &hasher)
    }

    private static func same(_ lhs: StepArguments, _ rhs: StepArguments) -> Bool {
        switch (lhs.content, rhs.content) {
        case (.none, .none):
            return true
        case (.scalar(let left, let leftIsPlain), .scalar(let right, let rightIsPlain)):
            return leftIsPlain == rightIsPlain && sameBytes(left, right)
        case (.sequence(let left), .sequence(let right)):
            return left.count == right.count && zip(left, right).allSatisfy { same($0, $1) }
        case (.mapping(let left), .mapping(let right)):
            return left.count == right.count
                && zip(left, right).allSatisfy { sameBytes($0.key, $1.key) && same($0.value, $1.value) }
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
            combineBytes(text, into: &hasher)
        case .sequence(let items):
            hasher.combine(3 as UInt8)
            hasher.combine(items.count)
            for item in items { hash(item, into: &hasher) }
        case .mapping(let entries):
            hasher.combine(4 as UInt8)
            hasher.combine(entries.count)
            for entry in entries {
                combineBytes(entry.key, into: &hasher)
                hash(entry.value, into: &hasher)
            }
        }
    }

    static func sameBytes(_ lhs: some StringProtocol, _ rhs: some StringProtocol) -> Bool {
        var lhs = Substring(lhs)
        var rhs = Substring(rhs)
        return lhs.withUTF8 { left in
            rhs.withUTF8 { right in
                guard left.count == right.count else { return false }
                guard let leftBase = left.baseAddress, let rightBase = right.baseAddress else { return true }
                return memcmp(leftBase, rightBase, left.count) == 0
            }
        }
    }

    /// The text's bytes and their count (so that two texts in a row are not the same bytes split
    /// elsewhere).
    static func combineBytes(_ text: some StringProtocol, into hasher: inout Hasher) {
        var text = Substring(text)
        text.withUTF8 { bytes in
            hasher.combine(bytes.count)
            hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
        }
    }
}

/// A step written as a flow collection (`post object: {class: Review, …}`), by its name as written and its
/// text: the same bytes are the same arguments, without their nodes being read again. Only for texts that
/// mean the same wherever they are written (``ScenarioFileLoader`` decides: no alias, no names bound
/// before, nothing reported).
struct WrittenSpan: Hashable {
    /// The step's name as written (a name always names one definition).
    let name: Substring
    let text: Substring

    static func == (lhs: WrittenSpan, rhs: WrittenSpan) -> Bool {
        WrittenStep.sameBytes(lhs.text, rhs.text) && WrittenStep.sameBytes(lhs.name, rhs.name)
    }

    func hash(into hasher: inout Hasher) {
        WrittenStep.combineBytes(name, into: &hasher)
        WrittenStep.combineBytes(text, into: &hasher)
    }
}
