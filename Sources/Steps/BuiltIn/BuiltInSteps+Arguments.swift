/// What the built-in definitions share to bound their arguments.
extension BuiltInSteps {
    /// HTTP statuses a step may name.
    static let statuses = 100...599
    /// Counts a step may expect: never negative, and bounded so that no number is too large to compare.
    static let counts = 0...1_000_000
}
