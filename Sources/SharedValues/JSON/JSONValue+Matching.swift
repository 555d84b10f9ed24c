/// How a JSON expectation matches arrays.
public enum JSONArrayMatch: Sendable, Hashable {
    /// Element by element: the same length, each element matching the expected one at its index.
    case inOrder
    /// Every expected element matches a different element, in any order; extra elements are allowed.
    case includes
}

/// Where an actual JSON value first differs from an expected one, and how:
/// `$.messages: 3 elements, expected 2`, `$.author.name: "Bob", expected "Ann"`.
public struct JSONMismatch: Sendable, Hashable, CustomStringConvertible {
    /// A JSONPath to the differing value (`$`, `$.messages[2].author`, `$["first name"]`).
    public var path: String
    /// What differs there.
    public var detail: String

    public var description: String { "\(path): \(detail)" }
}

extension JSONValue {
    /// Whether `self` contains `expected`: objects match when every expected key matches (extra keys
    /// are fine), arrays as `arrays` says (element by element unless `.includes`), numbers by value
    /// (`1` matches `1.0`).
    public func contains(_ expected: JSONValue, arrays: JSONArrayMatch = .inOrder) -> Bool {
        mismatch(against: expected, arrays: arrays) == nil
    }

    /// The first place where `self` does not contain `expected` (the rule of ``contains(_:arrays:)``),
    /// or `nil` when it does. Objects are walked in key order, so the answer is stable.
    public func mismatch(against expected: JSONValue, arrays: JSONArrayMatch = .inOrder) -> JSONMismatch? {
        mismatch(against: expected, arrays: arrays, at: "$", depth: 0)
    }

    private func mismatch(against expected: JSONValue, arrays: JSONArrayMatch, at path: String, depth: Int)
        -> JSONMismatch?
    {
        // Parsed values nest 256 deep at most; a value built in code could go deeper.
        guard depth < 512 else { return self == expected ? nil : JSONMismatch(path: path, detail: "nested too deeply") }
        switch (self, expected) {
        case (.object(let actual), .object(let wanted)):
            for key in wanted.keys.sorted() {
                let inner = path + Self.pathComponent(key)
                guard let value = actual[key] else {
                    let expectedValue = wanted[key] ?? .null
                    return JSONMismatch(path: inner, detail: "missing, expected \(expectedValue.excerpt)")
                }
                if let found = value.mismatch(
                    against: wanted[key] ?? .null,
                    arrays: arrays,
                    at: inner,
                    depth: depth + 1
                ) {
                    return found
                }
            }
            return nil
        case (.array(let actual), .array(let wanted)):
            switch arrays {
            case .inOrder:
                if actual.count != wanted.count {
                    return JSONMismatch(
                        path: path,
                        detail: "\(Self.elements(actual.count)), expected \(wanted.count)"
                    )
                }
                for (index, pair) in zip(actual, wanted).enumerated() {
                    if let found = pair.0.mismatch(
                        against: pair.1,
                        arrays: arrays,
                        at: path + "[\(index)]",
                        depth: depth + 1
                    ) {
                        return found
                    }
                }
                return nil
            case .includes:
                return Self.unmatched(wanted, in: actual, depth: depth).map { index in
                    JSONMismatch(
                        path: path,
                        detail: "no element matches \(wanted[index].excerpt) (\(Self.elements(actual.count)))"
                    )
                }
            }
        case (.int(let a), .double(let b)), (.double(let b), .int(let a)):
            return Double(a) == b ? nil : JSONMismatch(path: path, detail: "\(excerpt), expected \(expected.excerpt)")
        default:
            if self == expected { return nil }
            if kind != expected.kind {
                return JSONMismatch(path: path, detail: "\(kinded), expected \(expected.kinded)")
            }
            return JSONMismatch(path: path, detail: "\(excerpt), expected \(expected.excerpt)")
        }
    }

    /// The index of an expected element no distinct actual element matches, or `nil` when every
    /// expected element gets its own (a maximum bipartite matching, so the order of candidates cannot
    /// make a match look missing).
    private static func unmatched(_ wanted: [JSONValue], in actual: [JSONValue], depth: Int) -> Int? {
        let candidates = wanted.map { expected in
            actual.indices.filter {
                actual[$0].mismatch(against: expected, arrays: .includes, at: "$", depth: depth + 1) == nil
            }
        }
        var owner = [Int?](repeating: nil, count: actual.count)
        func assign(_ index: Int, _ seen: inout [Bool]) -> Bool {
            for candidate in candidates[index] where !seen[candidate] {
                seen[candidate] = true
                if owner[candidate] == nil || assign(owner[candidate] ?? 0, &seen) {
                    owner[candidate] = index
                    return true
                }
            }
            return false
        }
        for index in wanted.indices {
            var seen = [Bool](repeating: false, count: actual.count)
            if !assign(index, &seen) { return index }
        }
        return nil
    }

    private static func elements(_ count: Int) -> String {
        count == 1 ? "1 element" : "\(count) elements"
    }

    /// `.name`, or `["first name"]` for a key that is not a plain identifier.
    private static func pathComponent(_ key: String) -> String {
        let plain =
            !key.isEmpty && key.first.map { $0.isLetter || $0 == "_" } == true
            && key.allSatisfy { ($0.isLetter || $0.isNumber || $0 == "_") && $0.isASCII }
        return plain ? "." + key : "[" + JSONValue.string(key).text + "]"
    }

    /// `a string "Ann"`, `an array [1,2]`, `null`.
    private var kinded: String {
        if case .null = self { return "null" }
        return "\(kind) \(excerpt)"
    }

    private var kind: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .int, .double: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The value as JSON, shortened to 80 characters.
    var excerpt: String {
        let text = self.text
        return text.count <= 80 ? text : String(text.prefix(77)) + "…"
    }
}
