/// A `<property name="…" value="…"/>` of a JUnit testsuite: how the run was ordered or cut
/// (`shuffle seed`, `shard`), so that a report says how to reproduce it.
package struct JUnitProperty: Sendable, Hashable {
    package var name: String
    package var value: String

    package init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// The element, indented to sit in a testsuite's `<properties>`.
    var xml: String {
        #"      <property name="\#(JUnitReporter.escape(name, attribute: true))" value="\#(JUnitReporter.escape(value, attribute: true))"/>"#
            + "\n"
    }
}
