import Diagnostics

/// A Cucumber tag expression, what `--tag` takes: tags combined with `and`, `or`, `not` and
/// parentheses, `not` binding tightest and `or` loosest; the `@` before a tag is optional.
///
/// ```swift
/// let expression = try TagExpression(parsing: "@smoke and not (@slow or flaky)")
/// expression.matches(["smoke", "reviews"])   // true
/// expression.description                     // "@smoke and not (@slow or @flaky)"
/// ```
package indirect enum TagExpression: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    case tag(String)
    case not(TagExpression)
    case and(TagExpression, TagExpression)
    case or(TagExpression, TagExpression)

    /// A single tag, `@` or not.
    package init(stringLiteral value: String) {
        self = .tag(Self.bare(value))
    }

    /// Parses `text`; a malformed expression throws what is wrong with it.
    package init(parsing text: String) throws(TagExpressionError) {
        var parser = Parser(text: text, tokens: Self.tokens(text))
        guard !parser.tokens.isEmpty else { throw .empty }
        // Bounded, so that neither the parser nor matching recurses without a limit.
        guard parser.tokens.count <= Self.maximumWords else {
            throw .malformed(text, "it has more than \(Self.maximumWords.groupedDigits) words; select fewer tags.")
        }
        self = try parser.expression()
        if let extra = parser.peek {
            if let spelling = Parser.spellings[extra] {
                throw .malformed(text, "'\(extra)' is not an operator. Did you mean '\(spelling)'?")
            }
            throw .malformed(
                text,
                extra == ")"
                    ? "')' closes no '('."
                    : "'\(extra)' follows a complete expression; join them with 'and' or 'or'."
            )
        }
    }

    /// Whether a scenario with `tags` is selected.
    package func matches(_ tags: Set<String>) -> Bool {
        switch self {
        case .tag(let name): tags.contains(name)
        case .not(let inner): !inner.matches(tags)
        case .and(let left, let right): left.matches(tags) && right.matches(tags)
        case .or(let left, let right): left.matches(tags) || right.matches(tags)
        }
    }

    /// Every tag the expression names, without `@`.
    package var tags: Set<String> {
        switch self {
        case .tag(let name): [name]
        case .not(let inner): inner.tags
        case .and(let left, let right), .or(let left, let right): left.tags.union(right.tags)
        }
    }

    /// The expression written out, tags with `@`, parentheses only where needed.
    package var description: String {
        switch self {
        case .tag(let name): "@\(name)"
        case .not(let inner): "not " + inner.operand(below: 3)
        case .and(let left, let right): left.operand(below: 2) + " and " + right.operand(below: 2)
        case .or(let left, let right): left.operand(below: 1) + " or " + right.operand(below: 1)
        }
    }

    /// How tightly the expression binds: `or` 1, `and` 2, `not` and a tag 3.
    private var precedence: Int {
        switch self {
        case .or: 1
        case .and: 2
        case .not, .tag: 3
        }
    }

    private func operand(below level: Int) -> String {
        precedence < level ? "(\(description))" : description
    }

    /// A tag as written in a file or an expression, without its `@`.
    package static func bare(_ tag: String) -> String {
        tag.hasPrefix("@") ? String(tag.dropFirst()) : tag
    }

    /// Words and parentheses.
    private static func tokens(_ text: String) -> [String] {
        var tokens: [String] = []
        var word = ""
        for character in text {
            if character.isWhitespace || character == "(" || character == ")" {
                if !word.isEmpty { tokens.append(word) }
                word = ""
                if !character.isWhitespace { tokens.append(String(character)) }
            } else {
                word.append(character)
            }
        }
        if !word.isEmpty { tokens.append(word) }
        return tokens
    }

    /// Whether a `--tag` expression can name `tag` (already ``bare(_:)``): one word, no parentheses, not
    /// an operator or another language's spelling of one.
    package static func isSelectable(_ tag: String) -> Bool {
        !tag.contains { $0.isWhitespace || $0 == "(" || $0 == ")" }
            && !Parser.operators.contains(tag.lowercased()) && Parser.spellings[tag] == nil
    }

    /// The most words (tags, operators, parentheses) an expression may have.
    package static let maximumWords = 1_000
    /// The deepest an expression may nest `(` and `not`.
    package static let maximumNesting = 64

    /// Recursive descent: `or` of `and`s of `not`s of tags or parenthesised expressions.
    private struct Parser {
        let text: String
        var tokens: [String]
        var position = 0
        var depth = 0

        mutating func enter() throws(TagExpressionError) {
            depth += 1
            guard depth <= TagExpression.maximumNesting else {
                throw .malformed(
                    text,
                    "'(' and 'not' nest more than \(TagExpression.maximumNesting) deep; write it more simply."
                )
            }
        }

        /// What other languages write for the operators, and what to write instead.
        static let spellings = ["&&": "and", "&": "and", "||": "or", "|": "or", ",": "or", "!": "not", "~": "not"]
        static let operators: Set<String> = ["and", "or", "not"]

        var peek: String? { position < tokens.count ? tokens[position] : nil }

        mutating func take() -> String? {
            defer { position += 1 }
            return peek
        }

        mutating func expression() throws(TagExpressionError) -> TagExpression {
            var left = try conjunction()
            while peek?.lowercased() == "or" {
                position += 1
                left = .or(left, try conjunction(after: "or"))
            }
            return left
        }

        mutating func conjunction(after previous: String? = nil) throws(TagExpressionError) -> TagExpression {
            var left = try negation(after: previous)
            while peek?.lowercased() == "and" {
                position += 1
                left = .and(left, try negation(after: "and"))
            }
            return left
        }

        mutating func negation(after previous: String?) throws(TagExpressionError) -> TagExpression {
            if peek?.lowercased() == "not" {
                position += 1
                try enter()
                defer { depth -= 1 }
                return .not(try negation(after: "not"))
            }
            return try primary(after: previous)
        }

        mutating func primary(after previous: String?) throws(TagExpressionError) -> TagExpression {
            let expected = previous.map { "a tag after '\($0)'" } ?? "a tag"
            guard let token = take() else { throw .malformed(text, "expected \(expected) at the end.") }
            if token == "(" {
                try enter()
                defer { depth -= 1 }
                let inner = try expression()
                guard take() == ")" else { throw .malformed(text, "'(' is never closed.") }
                return inner
            }
            if let spelling = Self.spellings[token] {
                throw .malformed(text, "'\(token)' is not an operator. Did you mean '\(spelling)'?")
            }
            if token == ")" || Self.operators.contains(token.lowercased()) {
                throw .malformed(text, "expected \(expected), found '\(token)'.")
            }
            let name = TagExpression.bare(token)
            guard !name.isEmpty else { throw .malformed(text, "'@' needs a tag name after it.") }
            return .tag(name)
        }
    }
}

/// Why a `--tag` expression cannot be used; rendered here and only here.
package enum TagExpressionError: Error, Sendable, Hashable, CustomStringConvertible {
    case empty
    /// The expression as written, and what is wrong.
    case malformed(String, String)

    package var description: String {
        switch self {
        case .empty: "--tag needs a tag expression, like '@smoke and not @slow'."
        case .malformed(let text, let problem):
            "Malformed --tag '\(text.count > 80 ? text.prefix(80) + "…" : text)': \(problem)"
        }
    }
}
