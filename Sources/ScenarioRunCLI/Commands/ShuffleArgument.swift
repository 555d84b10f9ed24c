import Scenarios

/// `--shuffle [SEED]`: argument-parser has no option whose value may be left out, so the arguments are
/// rewritten before parsing. `--shuffle` followed by an unsigned integer takes it as the seed
/// (`--shuffle 42` → `--shuffle=42`); otherwise the next argument is left alone and the seed is picked
/// at random (`--shuffle` → `--shuffle=random`). A path is never all digits unless it is a file named
/// like `42` in the current folder, which can be written `./42`. `--shuffle=SEED` works as written.
enum ShuffleArgument {
    /// The value `--shuffle` alone stands for.
    static let randomValue = "random"

    /// `arguments` with every `--shuffle` given its value, up to a `--`; left alone for the subcommands
    /// other than `run`, which have no `--shuffle`.
    static func normalized(_ arguments: [String], otherSubcommands: Set<String>) -> [String] {
        if let first = arguments.first, otherSubcommands.contains(first) { return arguments }
        var out: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" {
                out += arguments[index...]
                break
            }
            if argument == "--shuffle" {
                if index + 1 < arguments.count, seed(arguments[index + 1]) != nil {
                    out.append("--shuffle=\(arguments[index + 1])")
                    index += 2
                } else {
                    out.append("--shuffle=\(randomValue)")
                    index += 1
                }
                continue
            }
            out.append(argument)
            index += 1
        }
        return out
    }

    /// The seed `text` names: ASCII digits only (no sign, no spaces), within 64 bits.
    static func seed(_ text: String) -> UInt64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            return nil
        }
        return UInt64(text)
    }

    /// The shuffle `value` (of `--shuffle=VALUE`) asks for; `nil` when it is neither a seed nor `random`.
    static func shuffle(_ value: String) -> ScenarioShuffle? {
        if value == randomValue { return ScenarioShuffle(seed: ScenarioShuffle.randomSeed()) }
        return seed(value).map(ScenarioShuffle.init(seed:))
    }
}
