import Diagnostics
import ObjectManager
import Testing

@testable import StubServer

/// `check`'s shadowed-route warnings: the index finds exactly what comparing every route with every
/// earlier one finds, on random tables of methods, placeholders, states and conditions.
struct RouteShadowingTests {
    /// What the warnings were before the index: each route against every earlier one.
    private func pairwise(_ routes: [ServerRoute]) -> [RouteShadowing] {
        var found: [RouteShadowing] = []
        for (index, route) in routes.enumerated() {
            guard let location = route.location,
                let earlier = routes[..<index].first(where: { RouteShadowing.answersEverything(of: route, before: $0) })
            else { continue }
            found.append(
                RouteShadowing(
                    location: location,
                    route: route.summary,
                    shadowedBy: "\(earlier.summary) at \(earlier.place)"
                )
            )
        }
        return found
    }

    @Test func theIndexFindsWhatComparingEveryPairFinds() throws {
        var random = SplitMix64(seed: 81)
        func pick<T>(_ choices: [T]) -> T { choices[Int(random.next(below: UInt64(choices.count)))] }
        let segments = ["a", "b", ":id", ":x", "c", ":1", "v:1"]
        var warnings = 0
        for _ in 0..<40 {
            var routes: [ServerRoute] = []
            for line in 0..<150 {
                let path =
                    "/" + (0..<(1 + Int(random.next(below: 3)))).map { _ in pick(segments) }.joined(separator: "/")
                var query: [(name: String, match: RequestValueMatch)] = []
                for _ in 0..<Int(random.next(below: 3)) {
                    query.append((pick(["p", "q"]), pick([.equals("1"), .equals("2"), .absent, try .matches("^x")])))
                }
                var headers: [(name: String, match: RequestValueMatch)] = []
                if random.next(below: 4) == 0 { headers.append((pick(["X-A", "x-a"]), .equals("v"))) }
                let conditions = RequestConditions(
                    query: query,
                    headers: headers,
                    json: random.next(below: 6) == 0 ? .object(["a": .int(Int(random.next(below: 2)))]) : nil,
                    bodyContains: random.next(below: 10) == 0 ? "hi" : nil
                )
                routes.append(
                    ServerRoute(
                        path: path,
                        method: pick([nil, "GET", "POST", "*"]),
                        conditions: conditions,
                        state: pick([nil, nil, "s1", "s2"]),
                        location: random.next(below: 10) == 0
                            ? nil : SourceLocation(file: "server.yml", line: line + 2, column: 5)
                    )
                )
            }
            let found = RouteShadowing.find(in: routes)
            #expect(found == pairwise(routes))
            warnings += found.count
        }
        #expect(warnings > 500, "the tables shadow often enough to test something: \(warnings)")
    }

    /// Many conditions on one route (more than the index looks up by subset) are compared one by one.
    @Test func aRouteWithManyConditionsIsComparedOneByOne() throws {
        let names = (0..<12).map { "p\($0)" }
        let all = RequestConditions(query: names.map { ($0, .equals("1")) })
        let some = RequestConditions(query: names.prefix(5).map { ($0, .equals("1")) })
        let location = SourceLocation(file: "server.yml", line: 3, column: 5)
        let routes = [
            ServerRoute(path: "/a", conditions: some, location: SourceLocation(file: "server.yml", line: 2, column: 5)),
            ServerRoute(path: "/a", conditions: all, location: location),
        ]
        #expect(RouteShadowing.find(in: routes) == pairwise(routes))
        #expect(RouteShadowing.find(in: routes).count == 1)
    }
}
