/// A regular expression that never backtracks: compiled to an automaton that reads the value once,
/// keeping every way the expression could still match at the same time (Thompson's construction, run as
/// Pike's VM), so a value of `n` characters costs at most `n` times the expression's size — `(a+)+$`
/// against `aaaa…b` included. What backtracking alone can do — backreferences, lookaround, atomic
/// groups, possessive quantifiers — is refused when the expression is read.
///
/// ```swift
/// let bearer = try LinearRegex("^Bearer [A-Za-z0-9-]+$")
/// var budget = LinearRegex.requestBudget
/// bearer.finds(in: "Bearer abc-1", budget: &budget)   // true
/// ```
///
/// The syntax is ICU's, less the refused constructs and set operations: literals and escapes (`\.`,
/// `\t`, `\x41`, `\u00e9`, `\x{1F600}`, `\Q…\E`), `.`, classes (`[a-z]`, `[^,]`, `\d \w \s` and
/// their negations, `\p{L}` and the other general categories), groups (`(…)`, `(?:…)`, `(?<name>…)`),
/// alternation, the quantifiers `* + ? {n} {n,} {n,m}` (lazy or greedy: only whether it matches is
/// asked), the anchors `^ $ \A \z \Z \b \B`, and the flags `i`, `m`, `s` (`(?i)`, `(?i:…)`).
package struct LinearRegex: Sendable, Equatable, CustomStringConvertible {
    /// The expression as written.
    package let pattern: String
    let program: [Instruction]
    let sets: [ScalarSet]
    /// Whether any instruction compares without case (the value is then folded once per search).
    let caseless: Bool
    /// The characters an expression anchored at the start (`^Bearer …`) reads first, checked before the
    /// automaton runs; empty for other expressions.
    let prefix: [Unicode.Scalar]

    /// The most instructions an expression may compile to: counted repetitions are written out
    /// (`a{500}` is 500), and a search costs at most this many steps per character.
    package static let instructionLimit = 2_000
    /// How many steps all the searches for one request may take together (a step is one instruction
    /// looked at for one character); past it, an expression gives up and does not hold.
    package static let requestBudget = 10_000_000
    /// How deeply groups may nest.
    static let nestingLimit = 100
    /// The largest count of `{n,m}`.
    static let countLimit = 1_000

    /// What the automaton does at one place.
    enum Instruction: Sendable, Equatable {
        /// Reads this character.
        case scalar(Unicode.Scalar)
        /// Reads this character in any case (stored folded).
        case foldedScalar(Unicode.Scalar)
        /// Reads a character of `sets[index]`; `ascii` answers for ASCII characters (case folded in
        /// already when `caseless`).
        case set(Int, caseless: Bool, ascii: ASCIIBits)
        /// Reads any character (but a line break, unless `dotAll`).
        case any(dotAll: Bool)
        /// Goes on at both places.
        case split(Int, Int)
        case jump(Int)
        /// Goes on only where the assertion holds.
        case assert(Assertion)
        case match
    }

    /// A place in the value an anchor asks for.
    enum Assertion: Sendable, Equatable {
        /// `^`, `\A`.
        case startOfText
        /// `\z`.
        case endOfText
        /// `$`, `\Z`: the end, or before a line break that ends the value.
        case endOfTextOrFinalBreak
        /// `^` with `m`.
        case startOfLine
        /// `$` with `m`.
        case endOfLine
        case wordBoundary
        case notWordBoundary
    }

    /// Why an expression cannot be used: not valid, or asking for what only backtracking can do.
    package struct SyntaxError: Error, Sendable, Equatable {
        /// Whether the expression is valid but refused (`true`), or not valid at all.
        package var unsupported: Bool
        /// `a '(' is not closed`, `backreferences (\1) are not supported`.
        package var reason: String
    }

    /// Reads `pattern`; throws when it is not valid, asks for what the automaton cannot do, or is too
    /// large.
    package init(_ pattern: String) throws(SyntaxError) {
        var parser = Parser(pattern)
        let node = try parser.parse()
        var compiler = Compiler()
        try compiler.compile(node)
        compiler.emit(.match)
        self.pattern = pattern
        self.program = compiler.program
        self.sets = compiler.sets
        self.caseless = compiler.caseless
        // After a leading `^`, the characters read one after another before any split: no jump leads
        // into them (a loop's jump leads to its split), so they can be compared first.
        var prefix: [Unicode.Scalar] = []
        if case .assert(.startOfText)? = compiler.program.first {
            for instruction in compiler.program.dropFirst() {
                guard case .scalar(let scalar) = instruction else { break }
                prefix.append(scalar)
            }
        }
        self.prefix = prefix
    }

    /// Whether the expression can match only at the start of the value (it begins with `^` or `\A`).
    var isAnchored: Bool {
        if case .assert(.startOfText)? = program.first { return true }
        return false
    }

    package var description: String { pattern }

    package static func == (lhs: LinearRegex, rhs: LinearRegex) -> Bool {
        lhs.pattern == rhs.pattern
    }

    /// Whether the expression matches somewhere in `text`; `nil` when `budget` (steps, shared by every
    /// search of a request) runs out first. Costs at most `text`'s length times ``program``'s size.
    package func finds(in text: String, budget: inout Int) -> Bool? {
        let input = Array(text.unicodeScalars)
        let anchored = isAnchored
        // `^Bearer `: the prefix is compared, and the automaton starts after it, at its end only.
        let first = prefix.count
        budget -= first
        guard input.count >= first, input[..<first].elementsEqual(prefix) else { return budget < 0 ? nil : false }
        let start = anchored ? 1 + first : 0
        let folded = caseless ? input.map(Self.folded) : []
        var search = Search(program: program, input: input)
        var current = Threads(capacity: program.count)
        var next = Threads(capacity: program.count)
        for position in first...input.count {
            // A match may start anywhere (unless anchored): a new thread at every place.
            if !anchored || position == first {
                if search.add(start, at: position, to: &current, budget: &budget) { return true }
                if budget < 0 { return nil }
            }
            guard position < input.count, !current.isEmpty else {
                if position < input.count, !anchored { continue }
                break
            }
            let scalar = input[position]
            next.clear()
            for pc in current.list {
                budget -= 1
                let reads: Bool
                switch program[pc] {
                case .scalar(let wanted): reads = scalar == wanted
                case .foldedScalar(let wanted): reads = folded[position] == wanted
                case .set(let index, let caseless, let ascii):
                    if scalar.value < 128 {
                        reads = ascii.contains(scalar.value)
                    } else {
                        let set = sets[index]
                        reads =
                            set.contains(scalar)
                            || (caseless && (set.contains(folded[position]) || set.contains(Self.upper(scalar))))
                    }
                case .any(let dotAll): reads = dotAll || !Self.isLineBreak(scalar)
                default: reads = false
                }
                if reads, search.add(pc + 1, at: position + 1, to: &next, budget: &budget) { return true }
            }
            if budget < 0 { return nil }
            swap(&current, &next)
        }
        return false
    }

    // MARK: Running

    /// The threads at one place: each instruction once, in the order added.
    struct Threads {
        private(set) var list: [Int] = []
        private var present: [Bool]

        init(capacity: Int) {
            list.reserveCapacity(capacity)
            present = Array(repeating: false, count: capacity)
        }

        var isEmpty: Bool { list.isEmpty }

        /// Adds `pc`; `false` when it was there already.
        mutating func insert(_ pc: Int) -> Bool {
            if present[pc] { return false }
            present[pc] = true
            list.append(pc)
            return true
        }

        mutating func clear() {
            for pc in list { present[pc] = false }
            list.removeAll(keepingCapacity: true)
        }
    }

    /// Following the instructions that read nothing (splits, jumps, anchors) from one place.
    struct Search {
        let program: [Instruction]
        let input: [Unicode.Scalar]
        var stack: [Int] = []

        init(program: [Instruction], input: [Unicode.Scalar]) {
            self.program = program
            self.input = input
        }

        /// Adds `start` and everything it leads to without reading to `threads`; `true` on reaching the
        /// match.
        mutating func add(_ start: Int, at position: Int, to threads: inout Threads, budget: inout Int) -> Bool {
            stack.append(start)
            defer { stack.removeAll(keepingCapacity: true) }
            while let pc = stack.popLast() {
                guard threads.insert(pc) else { continue }
                budget -= 1
                switch program[pc] {
                case .match: return true
                case .jump(let target): stack.append(target)
                case .split(let first, let second):
                    stack.append(second)
                    stack.append(first)
                case .assert(let assertion):
                    if holds(assertion, at: position) { stack.append(pc + 1) }
                case .scalar, .foldedScalar, .set, .any: break
                }
            }
            return false
        }

        func holds(_ assertion: Assertion, at position: Int) -> Bool {
            let count = input.count
            switch assertion {
            case .startOfText:
                return position == 0
            case .endOfText:
                return position == count
            case .endOfTextOrFinalBreak:
                if position == count { return true }
                if position == count - 1 { return LinearRegex.isLineBreak(input[position]) }
                return position == count - 2 && input[position] == "\r" && input[position + 1] == "\n"
            case .startOfLine:
                if position == 0 { return true }
                guard position < count, LinearRegex.isLineBreak(input[position - 1]) else { return false }
                return !(input[position - 1] == "\r" && input[position] == "\n")
            case .endOfLine:
                if position == count || LinearRegex.isLineBreak(input[position]) {
                    return !(position > 0 && input[position - 1] == "\r" && position < count && input[position] == "\n")
                }
                return false
            case .wordBoundary, .notWordBoundary:
                let before = position > 0 && LinearRegex.isWord(input[position - 1])
                let after = position < count && LinearRegex.isWord(input[position])
                return (before != after) == (assertion == .wordBoundary)
            }
        }
    }

    // MARK: Characters

    static func isLineBreak(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029: true
        default: false
        }
    }

    /// `\w`: letters, marks, decimal digits, connector punctuation, and the zero-width (non-)joiners.
    static func isWord(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            let value = scalar.value
            return (0x30...0x39).contains(value) || (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value)
                || value == 0x5F
        }
        let properties = scalar.properties
        switch properties.generalCategory {
        case .decimalNumber, .connectorPunctuation, .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return properties.isAlphabetic || scalar.value == 0x200C || scalar.value == 0x200D
        }
    }

    /// The character in lower case, when it has one lower-case character.
    static func folded(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        if scalar.isASCII {
            return (0x41...0x5A).contains(scalar.value) ? Unicode.Scalar(UInt8(scalar.value + 32)) : scalar
        }
        let lower = scalar.properties.lowercaseMapping.unicodeScalars
        return lower.count == 1 ? lower[lower.startIndex] : scalar
    }

    /// The character in upper case, when it has one upper-case character.
    static func upper(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        if scalar.isASCII {
            return (0x61...0x7A).contains(scalar.value) ? Unicode.Scalar(UInt8(scalar.value - 32)) : scalar
        }
        let upper = scalar.properties.uppercaseMapping.unicodeScalars
        return upper.count == 1 ? upper[upper.startIndex] : scalar
    }

    /// Which ASCII characters a class reads: bit `n` of `low` for character `n` below 64, of `high` for
    /// `n - 64` above.
    struct ASCIIBits: Sendable, Equatable {
        var low: UInt64 = 0
        var high: UInt64 = 0

        func contains(_ value: UInt32) -> Bool {
            (value < 64 ? low >> UInt64(value) : high >> UInt64(value - 64)) & 1 == 1
        }

        mutating func insert(_ value: UInt32) {
            if value < 64 { low |= 1 << UInt64(value) } else { high |= 1 << UInt64(value - 64) }
        }
    }
}
