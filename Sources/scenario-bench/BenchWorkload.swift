import Foundation

/// The standard workload (shared/bench/peer, spec v1) written into a temporary project folder:
/// `Fixtures/` with the peer's fixture files and `server.yml`, and `Scenarios/generated.yml`.
struct BenchWorkload {
    /// The project folder.
    let directory: URL

    static let variants: [(path: String, code: Int)] = [("/review", 201), ("/422", 422), ("/500", 500), ("/503", 503)]

    /// `restaurants.json` byte for byte: 20 objects `{"id": i, "name": "Restaurant i"}`, indent 2.
    static let restaurantsJSON: String = {
        let items = (1...20).map { "  {\n    \"id\": \($0),\n    \"name\": \"Restaurant \($0)\"\n  }" }
        return "[\n" + items.joined(separator: ",\n") + "\n]\n"
    }()

    static let fixtures: [String: String] = [
        "restaurants.json": restaurantsJSON,
        "review.json": "{\"id\": 1, \"title\": \"Whatever\"}\n",
        "422.json": "{\"errors\": {\"code\": 12345, \"message\": \"Invalid object.\"}}\n",
        "500.txt": "",
        "503.html": "<html>Service unavailable.</html>",
        "server.yml": """
        routes:
          - { path: /restaurants, method: GET, status: 200, fixture: restaurants.json, headers: { Content-Type: application/json } }
          - { path: /review, status: 201, fixture: review.json, headers: { Content-Type: application/json } }
          - { path: /422, status: 422, fixture: 422.json, headers: { Content-Type: application/json } }
          - { path: /500, status: 500, fixture: 500.txt, headers: { Content-Type: text/plain } }
          - { path: /503, status: 503, fixture: 503.html, headers: { Content-Type: text/html } }

        """,
    ]

    /// The scenario file for `count` scenarios, as `Benchmarks/generate.py` writes it.
    static func scenarioFile(count: Int) -> String {
        var text = "feature: Bench\nscenarios:\n"
        text.reserveCapacity(count * 460)
        for index in 0..<count {
            let (path, code) = variants[index % 4]
            let number = String(index)
            let padded = String(repeating: "0", count: max(0, 4 - number.count)) + number
            text += """
                  - scenario: S\(padded) create review stubbed to \(path) expects \(code)
                    steps:
                      - stub route: { class: Review, method: POST, to: \(path) }
                      - post object: { class: Review, attributes: { restaurantID: 1, title: Whatever } }
                      - expect response: { status: \(code) }
                      - get objects: { route: restaurants }

                """
            text +=
                code == 201
                ? "      - expect entities: { entity: Review, count: 1, where: { reviewID: 1, title: Whatever, restaurantID: 1 } }\n"
                : "      - expect entities: { entity: Review, count: 0 }\n"
            text += "      - wait for requests\n      - expect entities: { entity: Restaurant, count: 20 }\n"
        }
        return text
    }

    /// The same `count` scenarios (steps and arguments) made from outlines (`examples:`) of four rows
    /// each, one row per variant; `count` a multiple of 4. A row's name is its outline's number and its
    /// variant (a column only a name uses is an error, so the rows are not numbered one by one).
    static func outlineFile(count: Int) -> String {
        var text = "feature: Bench\nscenarios:\n"
        text.reserveCapacity(count * 200)
        for start in stride(from: 0, to: count, by: 4) {
            let number = String(start / 4)
            let padded = String(repeating: "0", count: max(0, 4 - number.count)) + number
            text += """
                  - scenario: S\(padded) create review stubbed to ${path} expects ${code}
                    examples:

                """
            for (path, code) in variants {
                let reviews =
                    code == 201
                    ? "{ entity: Review, count: 1, where: { reviewID: 1, title: Whatever, restaurantID: 1 } }"
                    : "{ entity: Review, count: 0 }"
                text += "      - { path: \(path), code: \(code), reviews: \(reviews) }\n"
            }
            text += """
                    steps:
                      - stub route: { class: Review, method: POST, to: "${path}" }
                      - post object: { class: Review, attributes: { restaurantID: 1, title: Whatever } }
                      - expect response: { status: "${code}" }
                      - get objects: { route: restaurants }
                      - expect entities: "${reviews}"
                      - wait for requests
                      - expect entities: { entity: Restaurant, count: 20 }

                """
        }
        return text
    }

    /// Writes the fixtures and a scenario file of `count` scenarios under a new temporary folder.
    init(count: Int) throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent(
                "scenario-bench-\(ProcessInfo.processInfo.processIdentifier)-\(count)",
                isDirectory: true
            )
        let fixtures = directory.appendingPathComponent("Fixtures")
        let scenarios = directory.appendingPathComponent("Scenarios")
        try FileManager.default.createDirectory(at: fixtures, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: scenarios, withIntermediateDirectories: true)
        for (name, content) in Self.fixtures {
            try Data(content.utf8).write(to: fixtures.appendingPathComponent(name))
        }
        try Data(Self.scenarioFile(count: count).utf8).write(to: scenarioFile)
    }

    var scenarioFile: URL { directory.appendingPathComponent("Scenarios/generated.yml") }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}
