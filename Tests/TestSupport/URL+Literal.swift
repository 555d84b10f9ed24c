public import Foundation

extension URL {
    /// A URL written in a test; a malformed one stops the test at once, naming it.
    public init(literal string: String) {
        guard let url = URL(string: string) else { preconditionFailure("Not a URL: \(string)") }
        self = url
    }
}
