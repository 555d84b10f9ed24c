import Diagnostics

/// Reading an expression (``LinearRegex/Parser``) into a tree, and the tree into instructions
/// (``LinearRegex/Compiler``).
extension LinearRegex {
    /// An expression read, before it is compiled.
    indirect enum Node {
        case empty
        case scalar(Unicode.Scalar, caseless: Bool)
        case set(ScalarSet, caseless: Bool)
        case any(dotAll: Bool)
        case assert(Assertion)
        case concatenation([Node])
        case alternation([Node])
        /// `node{minimum,maximum}`; no maximum for `*`, `+`, `{n,}`.
        case repetition(Node, minimum: Int, maximum: Int?)
    }

    /// The flags in force: `i` (any case), `m` (`^`/`$` at line breaks), `s` (`.` reads line breaks).
    struct Flags {
        var caseless = false
        var multiline = false
        var dotAll = false
    }

    /// A recursive-descent reader of ICU's syntax, less what only backtracking can do.
    struct Parser {
        let scalars: [Unicode.Scalar]
        var index = 0
        var depth = 0

        init(_ pattern: String) {
            scalars = Array(pattern.unicodeScalars)
        }

        mutating func parse() throws(SyntaxError) -> Node {
            var flags = Flags()
            let node = try alternation(&flags)
            if index < scalars.count {
                // Only an unopened `)` stops the top level.
                throw invalid("a ')' has no '(' before it")
            }
            return node
        }

        private var atEnd: Bool { index >= scalars.count }
        private var current: Unicode.Scalar? { atEnd ? nil : scalars[index] }

        private func invalid(_ reason: String) -> SyntaxError {
            SyntaxError(unsupported: false, reason: reason)
        }

        private func unsupported(_ reason: String) -> SyntaxError {
            SyntaxError(unsupported: true, reason: reason)
        }

        /// `a|b|c` up to a `)` or the end; `(?i)` changes `flags` for the rest of the group.
        private mutating func alternation(_ flags: inout Flags) throws(SyntaxError) -> Node {
            var branches = [try concatenation(&flags)]
            while current == "|" {
                index += 1
                branches.append(try concatenation(&flags))
            }
            return branches.count == 1 ? branches[0] : .alternation(branches)
        }

        private mutating func concatenation(_ flags: inout Flags) throws(SyntaxError) -> Node {
            var items: [Node] = []
            while let scalar = current, scalar != "|", scalar != ")" {
                if scalar == "\\", index + 1 < scalars.count, scalars[index + 1] == "Q" {
                    // `\Q…\E`: every character between is itself.
                    index += 2
                    while !atEnd, !(scalars[index] == "\\" && index + 1 < scalars.count && scalars[index + 1] == "E") {
                        items.append(literal(scalars[index], flags))
                        index += 1
                    }
                    if !atEnd { index += 2 }
                    continue
                }
                guard let atom = try atom(&flags) else { continue }
                items.append(try quantified(atom))
            }
            return items.count == 1 ? items[0] : (items.isEmpty ? .empty : .concatenation(items))
        }

        /// One item before its quantifier; `nil` for what matches nothing (a flag group, a comment).
        private mutating func atom(_ flags: inout Flags) throws(SyntaxError) -> Node? {
            guard let scalar = current else { return nil }
            index += 1
            switch scalar {
            case "(":
                return try group(&flags)
            case "[":
                return .set(try set(flags), caseless: flags.caseless)
            case ".":
                return .any(dotAll: flags.dotAll)
            case "^":
                return .assert(flags.multiline ? .startOfLine : .startOfText)
            case "$":
                return .assert(flags.multiline ? .endOfLine : .endOfTextOrFinalBreak)
            case "\\":
                return try escape(flags)
            case "*", "+", "?":
                throw invalid("'\(scalar)' has nothing before it to repeat")
            case "{" where isQuantifierBrace(at: index - 1):
                throw invalid("'{' has nothing before it to repeat")
            case "}":
                throw invalid("a '}' ends no count; write '\\}' for the character")
            case "{":
                throw invalid("a '{' does not start a count such as {2} or {1,3}; write '\\{' for the character")
            default:
                return literal(scalar, flags)
            }
        }

        private func literal(_ scalar: Unicode.Scalar, _ flags: Flags) -> Node {
            .scalar(flags.caseless ? LinearRegex.folded(scalar) : scalar, caseless: flags.caseless)
        }

        /// After `(`: a group, a non-capturing or named one, a flag change, or a comment.
        private mutating func group(_ flags: inout Flags) throws(SyntaxError) -> Node? {
            depth += 1
            defer { depth -= 1 }
            guard depth <= LinearRegex.nestingLimit else {
                throw invalid("groups are nested more than \(LinearRegex.nestingLimit) deep")
            }
            var inner = flags
            if current == "?" {
                index += 1
                switch current {
                case ":":
                    index += 1
                case "=", "!":
                    throw unsupported("lookahead ('(?\(current ?? "=")') is not supported")
                case ">":
                    throw unsupported("atomic groups ('(?>') are not supported")
                case "#":
                    // A comment, to the next `)`.
                    while let scalar = current, scalar != ")" { index += 1 }
                    guard current == ")" else { throw invalid("a '(?#' comment is not closed") }
                    index += 1
                    return nil
                case "<":
                    index += 1
                    if current == "=" || current == "!" {
                        throw unsupported("lookbehind ('(?<\(current ?? "=")') is not supported")
                    }
                    // A named group: the name is only a name here.
                    while let scalar = current, scalar != ">" {
                        guard scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) else {
                            throw invalid("a group name has '\(scalar)' in it")
                        }
                        index += 1
                    }
                    guard current == ">" else { throw invalid("a group name is not closed with '>'") }
                    index += 1
                default:
                    // Flags: `(?i)` for the rest of the enclosing group, `(?i:…)` for this one, `-` turns off.
                    var on = true
                    var changed = flags
                    while let scalar = current, scalar != ")", scalar != ":" {
                        switch scalar {
                        case "i": changed.caseless = on
                        case "m": changed.multiline = on
                        case "s": changed.dotAll = on
                        case "-" where on: on = false
                        case "x", "w": throw unsupported("the flag '\(scalar)' is not supported; use 'i', 'm' or 's'")
                        default: throw invalid("'(?\(scalar)' is not a group or a flag")
                        }
                        index += 1
                    }
                    guard let end = current else { throw invalid("a '(' is not closed") }
                    index += 1
                    if end == ")" {
                        flags = changed
                        return nil
                    }
                    inner = changed
                }
            }
            let node = try alternation(&inner)
            guard current == ")" else { throw invalid("a '(' is not closed") }
            index += 1
            return node
        }

        /// `*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}` after `node`, lazy (`*?`) or not; possessive ones (`*+`)
        /// are refused.
        private mutating func quantified(_ node: Node) throws(SyntaxError) -> Node {
            guard let scalar = current else { return node }
            let minimum: Int
            let maximum: Int?
            switch scalar {
            case "*": (minimum, maximum) = (0, nil)
            case "+": (minimum, maximum) = (1, nil)
            case "?": (minimum, maximum) = (0, 1)
            case "{" where isQuantifierBrace(at: index): (minimum, maximum) = try braces()
            default: return node
            }
            if scalar != "{" { index += 1 }
            if current == "?" {
                index += 1
            } else if current == "+" {
                throw unsupported("possessive quantifiers ('\(scalar)+') are not supported")
            }
            if let next = current,
                next == "*" || next == "+" || next == "?" || (next == "{" && isQuantifierBrace(at: index))
            {
                throw invalid("'\(next)' follows another quantifier; put what it repeats in a group")
            }
            return .repetition(node, minimum: minimum, maximum: maximum)
        }

        /// Whether the `{` at `start` begins `{n}`, `{n,}` or `{n,m}`; otherwise it is itself.
        private func isQuantifierBrace(at start: Int) -> Bool {
            var position = start + 1
            var digits = 0
            while position < scalars.count, ("0"..."9").contains(scalars[position]) {
                digits += 1
                position += 1
            }
            guard digits > 0, position < scalars.count else { return false }
            if scalars[position] == "}" { return true }
            guard scalars[position] == "," else { return false }
            position += 1
            while position < scalars.count, ("0"..."9").contains(scalars[position]) { position += 1 }
            return position < scalars.count && scalars[position] == "}"
        }

        /// `{n}`, `{n,}`, `{n,m}` from its `{`; leaves the index after the `}`.
        private mutating func braces() throws(SyntaxError) -> (Int, Int?) {
            index += 1
            func number() -> Int {
                var value = 0
                while let scalar = current, ("0"..."9").contains(scalar) {
                    value = min(value * 10 + Int(scalar.value - 48), Int(Int32.max))
                    index += 1
                }
                return value
            }
            let minimum = number()
            var maximum: Int? = minimum
            if current == "," {
                index += 1
                maximum = current == "}" ? nil : number()
            }
            index += 1
            let limit = LinearRegex.countLimit
            guard minimum <= limit, (maximum ?? 0) <= limit else {
                throw unsupported("a repetition count over \(limit) is not supported")
            }
            if let maximum, maximum < minimum { throw invalid("'{\(minimum),\(maximum)}' counts down") }
            return (minimum, maximum)
        }

        // MARK: Escapes

        /// After a `\` outside a class.
        private mutating func escape(_ flags: Flags) throws(SyntaxError) -> Node {
            guard let scalar = current else { throw invalid("it ends with a '\\'") }
            index += 1
            switch scalar {
            case "A": return .assert(.startOfText)
            case "z": return .assert(.endOfText)
            case "Z": return .assert(.endOfTextOrFinalBreak)
            case "b": return .assert(.wordBoundary)
            case "B": return .assert(.notWordBoundary)
            case "G": throw unsupported("'\\G' is not supported")
            case "1"..."9", "k":
                throw unsupported("backreferences ('\\\(scalar)') are not supported")
            default:
                switch try escapedItem(scalar, inSet: false) {
                case .scalar(let value): return literal(value, flags)
                case .set(let set): return .set(set, caseless: flags.caseless)
                }
            }
        }

        /// What an escape stands for inside or outside a class: one character or a set of them.
        enum Escaped {
            case scalar(Unicode.Scalar)
            case set(ScalarSet)
        }

        /// The escape after its `\` (already read as `scalar`).
        private mutating func escapedItem(_ scalar: Unicode.Scalar, inSet: Bool) throws(SyntaxError) -> Escaped {
            switch scalar {
            case "d": return .set(ScalarSet(property: .digit))
            case "D": return .set(ScalarSet(property: .digit, negated: true))
            case "w": return .set(ScalarSet(property: .word))
            case "W": return .set(ScalarSet(property: .word, negated: true))
            case "s": return .set(ScalarSet(property: .space))
            case "S": return .set(ScalarSet(property: .space, negated: true))
            case "p", "P": return .set(try property(negated: scalar == "P"))
            case "t": return .scalar("\t")
            case "n": return .scalar("\n")
            case "r": return .scalar("\r")
            case "f": return .scalar("\u{0C}")
            case "a": return .scalar("\u{07}")
            case "e": return .scalar("\u{1B}")
            case "b" where inSet: return .scalar("\u{08}")
            case "x": return .scalar(try hex(braced: current == "{", digits: 2))
            case "u": return .scalar(try hex(braced: false, digits: 4))
            case "U": return .scalar(try hex(braced: false, digits: 8))
            case "0":
                // `\0ooo`: up to three octal digits.
                var value: UInt32 = 0
                var digits = 0
                while digits < 3, let digit = current, ("0"..."7").contains(digit) {
                    value = value * 8 + digit.value - 48
                    index += 1
                    digits += 1
                }
                return .scalar(Unicode.Scalar(value) ?? "\0")
            case "c":
                guard let control = current, control.isASCII else { throw invalid("'\\c' has no letter after it") }
                index += 1
                return .scalar(Unicode.Scalar(UInt8(control.value & 0x1F)))
            default:
                if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                    throw unsupported("the escape '\\\(scalar)' is not supported")
                }
                // `\.`, `\\`, `\/`, `\-`: the character itself.
                return .scalar(scalar)
            }
        }

        /// `\xhh`, `\x{h…}`, `\uhhhh`, `\Uhhhhhhhh` from after the letter.
        private mutating func hex(braced: Bool, digits: Int) throws(SyntaxError) -> Unicode.Scalar {
            if braced { index += 1 }
            var value: UInt32 = 0
            var count = 0
            while let scalar = current, braced || count < digits, let digit = Character(scalar).hexDigitValue {
                value = value &* 16 &+ UInt32(digit)
                index += 1
                count += 1
                if count > 8 { throw invalid("a hexadecimal escape is too long") }
            }
            if braced {
                guard current == "}" else { throw invalid("a '\\x{' is not closed") }
                index += 1
            }
            guard count > 0, braced || count == digits, let scalar = Unicode.Scalar(value) else {
                throw invalid("a hexadecimal escape is not a character")
            }
            return scalar
        }

        /// `\p{L}`, `\pL`, `\P{Nd}`, `\p{^Lu}`: a general category.
        private mutating func property(negated: Bool) throws(SyntaxError) -> ScalarSet {
            var name = ""
            if current == "{" {
                index += 1
                while let scalar = current, scalar != "}" {
                    name.unicodeScalars.append(scalar)
                    index += 1
                }
                guard current == "}" else { throw invalid("a '\\p{' is not closed") }
                index += 1
            } else if let scalar = current {
                name.unicodeScalars.append(scalar)
                index += 1
            }
            var negated = negated
            if name.hasPrefix("^") {
                negated.toggle()
                name.removeFirst()
            }
            guard let categories = ScalarSet.categories(named: name) else {
                throw unsupported(
                    "the property '\(name)' is not supported; use a general category such as 'L', 'Lu' or 'Nd'"
                )
            }
            return ScalarSet(property: .categories(categories), negated: negated)
        }

        // MARK: Classes

        /// `[…]` from after its `[`: ranges, escapes, `^` to negate; nested classes and set operations are
        /// refused.
        private mutating func set(_ flags: Flags) throws(SyntaxError) -> ScalarSet {
            var set = ScalarSet()
            if current == "^" {
                set.negated = true
                index += 1
            }
            var first = true
            while let scalar = current, scalar != "]" || first {
                first = false
                index += 1
                let item: Escaped
                switch scalar {
                case "[":
                    throw unsupported("nested classes and set operations ('[' inside '[…]') are not supported")
                case "\\":
                    guard let escaped = current else { throw invalid("a '[' is not closed") }
                    index += 1
                    item = try escapedItem(escaped, inSet: true)
                case "&" where current == "&", "-" where current == "-":
                    throw unsupported("set operations ('\(scalar)\(scalar)') are not supported")
                default:
                    item = .scalar(scalar)
                }
                switch item {
                case .set(let inner):
                    set.members.append(.set(inner))
                case .scalar(let low):
                    // `a-z`; a `-` first or last is itself.
                    guard current == "-", index + 1 < scalars.count, scalars[index + 1] != "]" else {
                        set.members.append(.range(low...low))
                        continue
                    }
                    index += 1
                    var high = scalars[index]
                    index += 1
                    if high == "\\" {
                        guard let escaped = current else { throw invalid("a '[' is not closed") }
                        index += 1
                        guard case .scalar(let value) = try escapedItem(escaped, inSet: true) else {
                            throw invalid("a range ends with a class")
                        }
                        high = value
                    } else if high == "[" {
                        throw unsupported("nested classes and set operations ('[' inside '[…]') are not supported")
                    }
                    guard low <= high else { throw invalid("the range '\(low)-\(high)' runs backwards") }
                    set.members.append(.range(low...high))
                }
            }
            guard current == "]" else { throw invalid("a '[' is not closed") }
            index += 1
            return set
        }
    }

    /// Turns a tree into instructions, refusing more than ``LinearRegex/instructionLimit``.
    struct Compiler {
        var program: [Instruction] = []
        var sets: [ScalarSet] = []
        var caseless = false

        mutating func emit(_ instruction: Instruction) {
            program.append(instruction)
        }

        mutating func compile(_ node: Node) throws(SyntaxError) {
            guard Self.size(of: node) + 1 <= LinearRegex.instructionLimit else {
                throw SyntaxError(
                    unsupported: true,
                    reason:
                        "it is too large: written out, its repetitions come to more than \(LinearRegex.instructionLimit.groupedDigits) instructions"
                )
            }
            emitNode(node)
        }

        /// How many instructions `node` becomes (saturating: an enormous repetition stays a large number).
        static func size(of node: Node) -> Int {
            switch node {
            case .empty: return 0
            case .scalar, .set, .any, .assert: return 1
            case .concatenation(let items): return items.reduce(0) { min($0 + size(of: $1), Int(Int32.max)) }
            case .alternation(let branches):
                return branches.reduce(0) { min($0 + size(of: $1) + 2, Int(Int32.max)) }
            case .repetition(let inner, let minimum, let maximum):
                // The required copies, then each optional one behind a split (or one loop: split, copy, jump).
                let one = size(of: inner)
                let optional = maximum.map { ($0 - minimum) * (one + 1) } ?? (one + 2)
                let (required, overflow) = one.multipliedReportingOverflow(by: minimum)
                return overflow ? Int(Int32.max) : min(required + optional, Int(Int32.max))
            }
        }

        private mutating func emitNode(_ node: Node) {
            switch node {
            case .empty:
                break
            case .scalar(let scalar, let caseless):
                if caseless { self.caseless = true }
                emit(caseless ? .foldedScalar(scalar) : .scalar(scalar))
            case .set(let set, let caseless):
                if caseless { self.caseless = true }
                sets.append(set)
                var ascii = ASCIIBits()
                for value in UInt32(0)..<128 {
                    let scalar = Unicode.Scalar(UInt8(value))
                    let reads =
                        set.contains(scalar)
                        || (caseless
                            && (set.contains(LinearRegex.folded(scalar)) || set.contains(LinearRegex.upper(scalar))))
                    if reads { ascii.insert(value) }
                }
                emit(.set(sets.count - 1, caseless: caseless, ascii: ascii))
            case .any(let dotAll):
                emit(.any(dotAll: dotAll))
            case .assert(let assertion):
                emit(.assert(assertion))
            case .concatenation(let items):
                for item in items { emitNode(item) }
            case .alternation(let branches):
                var jumps: [Int] = []
                for (offset, branch) in branches.enumerated() {
                    if offset < branches.count - 1 {
                        let split = program.count
                        emit(.split(split + 1, -1))
                        emitNode(branch)
                        jumps.append(program.count)
                        emit(.jump(-1))
                        program[split] = .split(split + 1, program.count)
                    } else {
                        emitNode(branch)
                    }
                }
                for jump in jumps { program[jump] = .jump(program.count) }
            case .repetition(let inner, let minimum, let maximum):
                for _ in 0..<minimum { emitNode(inner) }
                if let maximum {
                    // Each optional copy may be skipped to the end.
                    var splits: [Int] = []
                    for _ in minimum..<maximum {
                        splits.append(program.count)
                        emit(.split(program.count + 1, -1))
                        emitNode(inner)
                    }
                    for split in splits { program[split] = .split(split + 1, program.count) }
                } else {
                    let loop = program.count
                    emit(.split(loop + 1, -1))
                    emitNode(inner)
                    emit(.jump(loop))
                    program[loop] = .split(loop + 1, program.count)
                }
            }
        }
    }
}
