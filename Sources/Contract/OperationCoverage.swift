package import StubServer

/// Which of the API's operations the project's routes stub and its last run's scenarios exercised, for
/// `check --openapi`: a team sees what its scenarios never touch.
///
/// ```
/// Coverage of openapi.yaml: 9 operations, 8 stubbed by a route, 6 exercised by the last run (40 scenarios, 2026-11-27 01:40 UTC).
///   OPERATION                      STUBBED BY               EXERCISED
///   DELETE /reviews/{reviewID}     Fixtures/server.yml:27   no
///   GET /restaurants/{id}/menu     no route                 no
/// ```
package struct OperationCoverage: Sendable {
    /// One operation of the document.
    package struct Row: Sendable, Equatable {
        package var operation: APIDocument.Operation
        /// The first route (held to the contract) that answers it (`Fixtures/server.yml:12`), or `nil`.
        package var route: String?
        /// How many distinct requests of the last run were this operation.
        package var exercised: Int
    }

    /// Every operation, in the document's order.
    package let rows: [Row]
    /// Whether a run's requests were known (a run has written `last-requests.json`).
    package let knowsRun: Bool

    /// The coverage of `document` by `routes` and the requests of the last run (`nil`: no run yet).
    package init(of document: APIDocument, routes: [ServerRoute], lastRun: [(method: String, path: String)]?) {
        var exercised: [String: Int] = [:]
        for request in lastRun ?? [] {
            if let operation = document.operation(method: request.method, path: request.path) {
                exercised[operation.description, default: 0] += 1
            }
        }
        let held = routes.filter(\.heldToContract)
        rows = document.operations.map { operation in
            // A route for any method answers every method at its path.
            let route = held.first { route in
                (route.method ?? operation.method) == operation.method
                    && document.operation(method: operation.method, path: route.path.rawValue) == operation
            }
            return Row(operation: operation, route: route?.place, exercised: exercised[operation.description] ?? 0)
        }
        knowsRun = lastRun != nil
    }

    /// The operations no route stubs or no scenario exercised (all of them before the first run).
    package var gaps: [Row] {
        rows.filter { $0.route == nil || (knowsRun && $0.exercised == 0) }
    }

    /// The table: a summary line, then a row per gap (`run` says which run was read, if any).
    package func table(document: String, run: String?) -> String {
        let stubbed = rows.filter { $0.route != nil }.count
        var summary = "Coverage of \(document): \(Self.counted(rows.count, "operation")), \(stubbed) stubbed by a route"
        if let run, knowsRun {
            summary += ", \(rows.filter { $0.exercised > 0 }.count) exercised by the last run (\(run))."
        } else {
            summary += "; no run recorded yet, so none exercised (run the scenarios, then check again)."
        }
        let gaps = gaps
        guard !gaps.isEmpty else {
            return summary + (knowsRun ? " Every operation is stubbed and exercised." : " Every operation is stubbed.")
        }
        let header = ("OPERATION", "STUBBED BY", "EXERCISED")
        let cells = gaps.map { row in
            (
                row.operation.description, row.route ?? "no route",
                knowsRun ? (row.exercised > 0 ? "yes" : "no") : "(no run)"
            )
        }
        let first = max(header.0.count, cells.map(\.0.count).max() ?? 0)
        let second = max(header.1.count, cells.map(\.1.count).max() ?? 0)
        func line(_ cell: (String, String, String)) -> String {
            "  " + Self.padded(cell.0, to: first) + "   " + Self.padded(cell.1, to: second) + "   " + cell.2
        }
        return ([summary, line(header)] + cells.map(line)).joined(separator: "\n")
    }

    private static func padded(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }

    private static func counted(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}
