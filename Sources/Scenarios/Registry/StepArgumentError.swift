public import Diagnostics

/// A problem with a step's arguments, found while building the step; the loader turns it into a diagnostic.
public struct StepArgumentError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public var location: SourceLocation

    public init(_ message: String, at location: SourceLocation) {
        self.message = message
        self.location = location
    }

    public var description: String { "\(location): \(message)" }
}
