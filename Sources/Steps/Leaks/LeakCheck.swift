/// A check of the app's own shared state, made after every scenario's tear-down beside the built-in
/// ones (store rows, routes, queue, reachability, cache, running requests and background work). It
/// returns a short description of each thing the scenario left behind, or nothing when that state is
/// back to what set-up makes; every description becomes part of the reason of the scenario's
/// `check for leaks` step (`3 Review rows; 2 loan reminders still scheduled`). An error it throws is
/// reported as a leak too (`leak check 'loan reminders' failed: …`).
///
/// ```swift
/// AppUnderTest(makeFactory: { makeTestFactory() }, steps: [borrowBook], leakChecks: [
///     LeakCheck("loan reminders") { _ in
///         let count = LoanReminders.shared.scheduledCount
///         return count == 0 ? [] : ["\(count) loan reminders still scheduled"]
///     }
/// ])
/// ```
public struct LeakCheck: Sendable {
    /// What the check looks at, for the message when it throws (`loan reminders`).
    public var name: String
    /// Finds the leaks; receives the run's test environment (factory, stub server, fixtures).
    public var check: @Sendable (TestEnvironment) async throws -> [String]

    /// Makes a leak check named `name` (`loan reminders`) that runs `check`; see the example above.
    public init(_ name: String, check: @escaping @Sendable (TestEnvironment) async throws -> [String]) {
        self.name = name
        self.check = check
    }
}
