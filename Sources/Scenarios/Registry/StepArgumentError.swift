public import Diagnostics

/// A problem with a step's arguments, found while building the step; the loader turns it into a diagnostic.
public struct StepArgumentError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the argument.
    public var message: String
    /// Where the offending argument is written.
    public var location: SourceLocation

    /// Makes an error with `message` located at `location`.
    public init(_ message: String, at location: SourceLocation) {
        self.message = message
        self.location = location
    }

    public var description: String { "\(location): \(message)" }
}
