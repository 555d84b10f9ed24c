import Foundation
import ObjectManager
import StubServer

/// What choosing a route costs the stub server per request, with a table of 100 routes that all use
/// `when:` (a query parameter, a header matched by a regular expression, a JSON body subset): the
/// request that the first route answers, the one only the last answers (every route tried), and one
/// nothing answers (its near misses ranked), plus a templated JSON answer's rendering.
extension ScenarioBench {
    func matching() async throws {
        var yaml = "routes:\n"
        for index in 0..<100 {
            yaml += """
                  - path: /messages/:id
                    method: POST
                    when:
                      query: { page: "\(index)" }
                      headers: { Authorization: { matches: "^Bearer [a-z]+$" } }
                      json: { message: { channel: c\(index) } }
                    status: 201
                    json: { id: "{{sequence}}", text: "{{request.json.message.text}}", page: "{{request.query.page}}" }

                """
        }
        let table = try ServerRouteTable.parse(yaml: yaml, file: "bench/server.yml")
        let session = StubSession(table: table)
        func request(page: Int) -> IncomingRequest {
            IncomingRequest(
                JournalEntry(
                    method: "POST",
                    path: "/messages/7",
                    query: "page=\(page)",
                    headers: [HTTPHeader(name: "Authorization", value: "Bearer token")],
                    body: Data(#"{"message": {"channel": "c\#(page)", "text": "hi \"there\""}}"#.utf8)
                )
            )
        }
        let segments = ["messages", "7"]
        let operations = 1_000
        for (name, page) in [("first", 0), ("last", 99)] {
            await measure(
                "stub server: choose among 100 routes with when: (the \(name) matches)",
                runs: runs(30),
                operations: operations,
                unit: "request"
            ) {
                for _ in 0..<operations { _ = session.choose(for: request(page: page), segments: segments) }
            }
        }
        await measure(
            "stub server: 100 routes with when:, none matches (near misses ranked)",
            runs: runs(15),
            operations: 100,
            unit: "request"
        ) {
            for _ in 0..<100 {
                let unmatched = request(page: 500)
                if session.choose(for: unmatched, segments: segments) == nil {
                    _ = session.recordUnmatched(unmatched, segments: segments)
                }
            }
        }
        guard let choice = session.choose(for: request(page: 3), segments: segments),
            case .jsonTemplate(let template) = choice.answer.content
        else { throw BenchError.failed("the templated route did not answer") }
        let values = TemplateValues(request: request(page: 3), parameters: choice.parameters, sequence: 1)
        await measure(
            "stub server: render a JSON answer with 3 templates",
            runs: runs(30),
            operations: operations,
            unit: "answer"
        ) {
            for _ in 0..<operations { _ = template.render(values).encoded() }
        }
    }
}
