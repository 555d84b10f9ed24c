import Foundation
import ObjectManager
import Testing

@testable import StubServer

/// The stub server's regular expressions: the same answers as ICU's `NSRegularExpression` for what both
/// take, what needs backtracking refused in words, and a bounded cost whatever the pattern and value.
struct LinearRegexTests {
    private func finds(_ pattern: String, _ text: String) throws -> Bool? {
        var budget = LinearRegex.requestBudget
        return try LinearRegex(pattern).finds(in: text, budget: &budget)
    }

    private func icu(_ pattern: String, _ text: String) throws -> Bool {
        let regex = try NSRegularExpression(pattern: pattern)
        return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    /// Patterns a `when:` is written with, each against values that match and values that do not: the
    /// answer is ICU's.
    @Test(arguments: [
        ("^Bearer ", ["Bearer abc", "bearer abc", "xBearer ", ""]),
        ("^Bearer [A-Za-z0-9-]+$", ["Bearer a-1", "Bearer ", "Bearer a b", "Bearer abc\n", "Bearer abc\n\n"]),
        ("^(name|date)$", ["name", "date", "names", "dat", "xdate"]),
        ("^[0-9]+$", ["123", "12a", "", "١٢٣"]),
        (#"^\d{3}-\d{4}$"#, ["555-1234", "55-1234", "555-12345", "٥٥٥-١٢٣٤"]),
        (#"\bword\b"#, ["a word here", "swordfish", "word", "words"]),
        (#"\Bor\B"#, ["word", "or", "for"]),
        ("(?i)^lunch$", ["LUNCH", "Lunch", "lunch", "lunches"]),
        ("(?i:é)t(?-i)É", ["Été", "étÉ", "été"]),
        ("^a.c$", ["abc", "a\nc", "ac", "a€c"]),
        ("(?s)^a.c$", ["a\nc", "abc"]),
        ("(?m)^b$", ["a\nb\nc", "abc", "a\nb"]),
        ("a$", ["a", "a\n", "a\r\n", "ab", "a\n\n"]),
        (#"a\z"#, ["a", "a\n"]),
        (#"a\Z"#, ["a", "a\n", "a\nb"]),
        (#"\Aab"#, ["ab", "cab"]),
        ("colou?r", ["color", "colour", "colouur"]),
        ("^x{2,3}$", ["x", "xx", "xxx", "xxxx"]),
        ("^x{2,}$", ["x", "xx", "xxxxx"]),
        ("^(ab){2}$", ["abab", "ab", "ababab"]),
        ("^[^,]+,[^,]+$", ["a,b", "a,b,c", ",b"]),
        (#"^[\w.+-]+@[\w-]+\.[a-z]{2,}$"#, ["a.b+c@host.org", "a@b.c", "ü@ß.de", "a@@b.org"]),
        (#"[\s\S]"#, [" ", "x", ""]),
        (#"^\p{Lu}\p{Ll}+$"#, ["Émile", "émile", "ÉMILE"]),
        (#"^\P{L}+$"#, ["123 !", "12a"]),
        (#"\x41\u0042\x{43}"#, ["ABC", "abc"]),
        (#"\Q.*\E$"#, ["a.*", "abc"]),
        (#"a\.b\/c"#, ["a.b/c", "axb/c"]),
        ("[a-]x", ["-x", "ax", "bx"]),
        ("[]a]", ["]", "a", "b"]),
        (#"a\{,2\}"#, ["a{,2}", "aa"]),
        ("^(a|ab)(c|bcd)(d*)$", ["abcd", "abcdd", "acd"]),
        ("(a*)*$", ["", "b", "aaab"]),
        ("(a|)+b", ["b", "aab", "c"]),
        ("x*?y", ["xxy", "xx"]),
        ("(?<year>[0-9]{4})-(?:0[1-9]|1[0-2])", ["2024-12", "2024-13"]),
        ("a(?#comment)b", ["ab", "a b"]),
        ("[[:]]", [":]", "["]),
    ])
    func answersAsICUDoes(pattern: String, values: [String]) throws {
        guard pattern != "[[:]]" else {
            // A '[' inside a class: ICU reads a set there; this engine refuses it in words.
            #expect(throws: LinearRegex.SyntaxError.self) { try LinearRegex(pattern) }
            return
        }
        for value in values {
            #expect(try finds(pattern, value) == icu(pattern, value), "\(pattern) on \(value.debugDescription)")
        }
    }

    /// Random patterns of a small grammar on random short values: ICU's answer every time (the values
    /// are short, so ICU's backtracking stays quick). Computed on a thread of its own: seconds of work on
    /// one of Swift Testing's two shared threads held timing-sensitive tests of the same run past their
    /// bounds.
    @Test func randomPatternsAnswerAsICUDoes() async throws {
        let mismatches = await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: Self.randomMismatches(count: 1_000)) }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
    }

    /// The random cases where the answer is not ICU's (or a pattern did not compile), described.
    private static func randomMismatches(count: Int) -> [String] {
        var random = SplitMix64(seed: 27)
        let atoms = ["a", "b", ".", "[ab]", "[^a]", #"\w"#, #"\d"#, "1", "(a|b)", "(ab|a)", "(a*)", "^", "$", #"\b"#]
        let quantifiers = ["", "", "", "*", "+", "?", "{2}", "{1,3}", "{0,}", "*?"]
        let letters: [Character] = ["a", "b", "1", " ", "\n"]
        var mismatches: [String] = []
        for _ in 0..<count {
            var pattern = ""
            for _ in 0..<(1 + Int(random.next(below: 5))) {
                let atom = atoms[Int(random.next(below: UInt64(atoms.count)))]
                let anchor = ["^", "$", #"\b"#].contains(atom)
                pattern += atom + (anchor ? "" : quantifiers[Int(random.next(below: UInt64(quantifiers.count)))])
                if random.next(below: 8) == 0 { pattern = "(" + pattern + ")|" }
            }
            if pattern.hasSuffix("|") { pattern += "b" }
            let value = String((0..<Int(random.next(below: 8))).map { _ in letters[Int(random.next(below: 5))] })
            do {
                var budget = LinearRegex.requestBudget
                let ours = try LinearRegex(pattern).finds(in: value, budget: &budget)
                let regex = try NSRegularExpression(pattern: pattern)
                let theirs = regex.firstMatch(in: value, range: NSRange(value.startIndex..., in: value)) != nil
                if ours != theirs {
                    mismatches.append("\(pattern) on \(value.debugDescription): \(ours), ICU \(theirs)")
                }
            } catch {
                mismatches.append("\(pattern): \(error)")
            }
        }
        return mismatches
    }

    /// `(a+)+$` on 30,000 `a`s and a `b`: ICU backtracks for ever; here the cost is the value's length
    /// times the pattern's size, far within one request's budget.
    @Test func aCatastrophicPatternCostsLinearTime() throws {
        let regex = try LinearRegex("(a+)+$")
        var budget = LinearRegex.requestBudget
        #expect(regex.finds(in: String(repeating: "a", count: 30_000) + "b", budget: &budget) == false)
        budget = LinearRegex.requestBudget
        let anchored = try LinearRegex("^(a+)+$")
        #expect(anchored.finds(in: String(repeating: "a", count: 30_000) + "b", budget: &budget) == false)
        #expect(LinearRegex.requestBudget - budget <= 30_001 * anchored.program.count * 2)
        budget = LinearRegex.requestBudget
        let nested = try LinearRegex("^(a|a)*(a|aa)*(.*)*(.*a){20}$")
        #expect(nested.finds(in: String(repeating: "a", count: 1_000) + "b", budget: &budget) == false)
    }

    /// A search that runs out of the request's steps gives up (`nil`), and the condition says why.
    @Test func aSearchPastTheBudgetGivesUpAndSaysSo() throws {
        let regex = try LinearRegex("(.*a){100}x")
        var budget = 10_000
        #expect(regex.finds(in: String(repeating: "a", count: 5_000), budget: &budget) == nil)
        let match = try RequestValueMatch.matches("(.*a){100}x")
        var small = 10_000
        #expect(
            match.mismatch(in: [String(repeating: "a", count: 5_000)], budget: &small)
                == "not matched against matching /(.*a){100}x/: the request's regular expressions took more than 10,000,000 steps"
        )
    }

    /// What needs backtracking, and what is too large, is refused when the route is read, in words.
    @Test(arguments: [
        (#"(a)\1"#, #"Unsupported regular expression '(a)\1': backreferences ('\1') are not supported"#),
        (#"(?<x>a)\k<x>"#, #"Unsupported regular expression '(?<x>a)\k<x>': backreferences ('\k') are not supported"#),
        ("a(?=b)", "Unsupported regular expression 'a(?=b)': lookahead ('(?=') is not supported"),
        ("a(?!b)", "Unsupported regular expression 'a(?!b)': lookahead ('(?!') is not supported"),
        ("(?<=a)b", "Unsupported regular expression '(?<=a)b': lookbehind ('(?<=') is not supported"),
        ("(?>a+)b", "Unsupported regular expression '(?>a+)b': atomic groups ('(?>') are not supported"),
        ("a*+b", "Unsupported regular expression 'a*+b': possessive quantifiers ('*+') are not supported"),
        ("[a-z&&[^e]]", "Unsupported regular expression '[a-z&&[^e]]': set operations ('&&') are not supported"),
        (
            "(x{1000}){3}",
            "Unsupported regular expression '(x{1000}){3}': it is too large: written out, its repetitions come to more than 2,000 instructions",
        ),
        ("a{1001}", "Unsupported regular expression 'a{1001}': a repetition count over 1000 is not supported"),
        (
            #"\p{Greek}"#,
            #"Unsupported regular expression '\p{Greek}': the property 'Greek' is not supported; use a general category such as 'L', 'Lu' or 'Nd'"#
        ),
        ("(", "Invalid regular expression '(': a '(' is not closed."),
        ("a)", "Invalid regular expression 'a)': a ')' has no '(' before it."),
        ("[a", "Invalid regular expression '[a': a '[' is not closed."),
        ("*a", "Invalid regular expression '*a': '*' has nothing before it to repeat."),
        ("a**", "Invalid regular expression 'a**': '*' follows another quantifier; put what it repeats in a group."),
        ("[z-a]", "Invalid regular expression '[z-a]': the range 'z-a' runs backwards."),
        ("a{3,2}", "Invalid regular expression 'a{3,2}': '{3,2}' counts down."),
        ("a}", #"Invalid regular expression 'a}': a '}' ends no count; write '\}' for the character."#),
        (
            "a{,2}",
            #"Invalid regular expression 'a{,2}': a '{' does not start a count such as {2} or {1,3}; write '\{' for the character."#
        ),
        (#"a\"#, #"Invalid regular expression 'a\': it ends with a '\'."#),
    ])
    func refusesWhatNeedsBacktrackingInWords(pattern: String, message: String) {
        #expect(throws: (any Error).self) { try RequestValueMatch.matches(pattern) }
        do {
            _ = try RequestValueMatch.matches(pattern)
        } catch {
            let expected =
                message.hasPrefix("Invalid")
                ? message
                : message + " (the stub server matches without backtracking, in time linear in the value)."
            #expect(error.message == expected)
        }
    }

    /// Groups nested past the limit are an error, not a deep recursion.
    @Test func deeplyNestedGroupsAreRefused() {
        let pattern = String(repeating: "(", count: 10_000) + "a" + String(repeating: ")", count: 10_000)
        #expect(throws: LinearRegex.SyntaxError(unsupported: false, reason: "groups are nested more than 100 deep")) {
            try LinearRegex(pattern)
        }
    }
}
