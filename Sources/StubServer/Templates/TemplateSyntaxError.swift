/// A template swift-mustache cannot parse: its reason, and where in the template's own text.
package struct TemplateSyntaxError: Error, Sendable, Equatable {
    package var reason: String
    package var line: Int
    package var column: Int

    /// `unfinishedName at line 1, column 9 of the template`.
    package var message: String {
        "\(reason) at line \(line), column \(column) of the template"
    }
}
