import Diagnostics
package import Foundation

/// `scenario-run merge-junit`: one JUnit report from the reports of a run's shards. Testsuites of the
/// same name (a feature whose scenarios ran in several shards) become one, with every testcase in file
/// order; `tests`, `failures`, `errors`, `skipped` and `time` are summed, and every distinct property is
/// kept (so the merged suite lists `shard 1/3`, `shard 2/3`, … it came from).
///
/// ```swift
/// let xml = try JUnitMerge.merge([(path: "shard-1.xml", data: one), (path: "shard-2.xml", data: two)])
/// ```
package enum JUnitMerge {
    /// The counts a testsuite or the whole report carries.
    private static let counts = ["tests", "failures", "errors", "skipped"]
    /// How attributes are ordered when written: as ``JUnitReporter`` writes them, the rest by name.
    private static let attributeOrder = [
        "classname", "name", "file", "line", "tests", "failures", "errors", "skipped", "time", "value", "message",
    ]

    /// One merged testsuite, built up across the files.
    private struct Suite {
        var attributes: [String: String]
        var totals: [String: Double] = [:]
        var properties: [XMLTree.Element] = []
        var children: [XMLTree.Element.Child] = []
    }

    /// The merged report as XML text.
    package static func merge(_ reports: [(path: String, data: Data)]) throws(JUnitMergeError) -> String {
        var order: [String] = []
        var suites: [String: Suite] = [:]
        var rootName: String?
        var rootTime = 0.0
        var sawErrors = false
        for report in reports {
            let root = try parse(report.data, path: report.path)
            let fileSuites: [XMLTree.Element]
            switch root.name {
            case "testsuites":
                fileSuites = root.elements.filter { $0.name == "testsuite" }
                rootName = rootName ?? root.attributes["name"]
                // The run's own time when it says; else its suites' times.
                var suiteTimes = 0.0
                for suite in fileSuites {
                    suiteTimes +=
                        try number(suite, "time", path: report.path, suite: suite.attributes["name"] ?? "") ?? 0
                }
                rootTime +=
                    try number(root, "time", path: report.path, suite: root.attributes["name"] ?? "testsuites")
                    ?? suiteTimes
            default:
                fileSuites = [root]
            }
            for element in fileSuites {
                let name = element.attributes["name"] ?? ""
                if root.name == "testsuite" {
                    rootTime += try number(element, "time", path: report.path, suite: name) ?? 0
                }
                var suite = suites[name] ?? Suite(attributes: element.attributes)
                if suites[name] == nil { order.append(name) }
                for attribute in counts + ["time"] {
                    if let value = try number(element, attribute, path: report.path, suite: name) {
                        suite.totals[attribute, default: 0] += value
                        if attribute == "errors" { sawErrors = true }
                    }
                }
                for child in element.children {
                    if case .element(let properties) = child, properties.name == "properties" {
                        for property in properties.elements where !suite.properties.contains(property) {
                            suite.properties.append(property)
                        }
                    } else {
                        suite.children.append(child)
                    }
                }
                suites[name] = suite
            }
        }

        var total: [String: Double] = [:]
        var merged: [XMLTree.Element.Child] = []
        for name in order {
            guard var suite = suites[name] else { continue }
            for attribute in counts where attribute != "errors" || sawErrors {
                suite.attributes[attribute] = count(suite.totals[attribute] ?? 0)
                total[attribute, default: 0] += suite.totals[attribute] ?? 0
            }
            suite.attributes["time"] = seconds(suite.totals["time"] ?? 0)
            var children = suite.children
            if !suite.properties.isEmpty {
                children.insert(
                    .element(XMLTree.Element(name: "properties", children: suite.properties.map { .element($0) })),
                    at: 0
                )
            }
            merged.append(
                .element(XMLTree.Element(name: "testsuite", attributes: suite.attributes, children: children))
            )
        }
        var rootAttributes = ["name": rootName ?? "merged", "time": seconds(rootTime)]
        for attribute in counts where attribute != "errors" || sawErrors {
            rootAttributes[attribute] = count(total[attribute] ?? 0)
        }
        let root = XMLTree.Element(name: "testsuites", attributes: rootAttributes, children: merged)
        return #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
            + XMLTree.render(root, depth: 0, attributeOrder: attributeOrder)
    }

    /// The root element of a JUnit report: `<testsuites>` or a lone `<testsuite>`.
    static func parse(_ data: Data, path: String) throws(JUnitMergeError) -> XMLTree.Element {
        let root: XMLTree.Element
        do {
            root = try XMLTree.parse(data)
        } catch {
            let text = String(decoding: data, as: UTF8.self)
            let location = SourceLocation(file: path, line: error.line, column: error.column)
            throw .malformed(Diagnostic("Malformed JUnit XML: \(error.reason).", at: location, in: text))
        }
        guard root.name == "testsuites" || root.name == "testsuite" else {
            throw .notJUnit(path: path, root: root.name)
        }
        return root
    }

    /// The largest count (`tests`, `failures`, …) one file's testsuite may carry: a billion.
    package static let countLimit = 1_000_000_000.0
    /// The largest `time` one file's testsuite may carry: a billion seconds (31 years).
    package static let timeLimit = 1_000_000_000.0

    /// An attribute read as a number; `nil` when absent. Counts up to ``countLimit`` and times up to
    /// ``timeLimit``, so that sums of any number of files stay exact enough and convert safely.
    private static func number(_ element: XMLTree.Element, _ attribute: String, path: String, suite: String)
        throws(JUnitMergeError)
        -> Double?
    {
        guard let text = element.attributes[attribute] else { return nil }
        guard let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite, value >= 0 else {
            throw .notANumber(path: path, suite: suite, attribute: attribute, value: text)
        }
        let limit = attribute == "time" ? timeLimit : countLimit
        guard value <= limit else {
            throw .outOfRange(path: path, suite: suite, attribute: attribute, value: text, limit: limit)
        }
        return value
    }

    /// A summed count as written: whole, clamped to what an `Int` holds.
    private static func count(_ value: Double) -> String {
        String(value < 9e18 ? Int(value) : Int(9e18))
    }

    /// Seconds as ``JUnitReporter`` writes them (three decimals), clamped to what the writer holds.
    private static func seconds(_ value: Double) -> String {
        Duration.milliseconds(Int64((min(value, 9e15) * 1000).rounded())).fixedSeconds
    }
}
