import Diagnostics
import ExampleApp
import Foundation
import NIOCore
import NIOPosix
import ObjectManager
import RunPipeline
import ScenarioRunCLI
import Scenarios
import Steps
import StubServer
import TUIRunner

/// `scenario-bench [--quick] [NAME ...]` — micro-benchmarks of scenario-run's moving parts, printed as
/// a Markdown table of medians (plain `ContinuousClock` timing; build with `-c release`).
///
/// Names select benchmarks by prefix: `dispatch`, `route`, `mapping`, `store`, `request`, `environment`,
/// `load`, `server`, `matching`, `workload`, `tui`. `--quick` does fewer runs (for profilers and smoke checks).
@main
struct ScenarioBench {
    static func main() async {
        // As in scenario-run: every task on NIO's one event loop, beside the client and the stub server.
        EventLoopExecutor.install(loops: 1)
        var arguments = Array(CommandLine.arguments.dropFirst())
        let quick = arguments.contains("--quick")
        arguments.removeAll { $0 == "--quick" }
        if arguments.contains(where: { $0.hasPrefix("-") }) {
            print(
                "usage: scenario-bench [--quick] [dispatch|wire|route|mapping|store|matching|request|environment|load|server|workload|tui ...]"
            )
            exit(2)
        }
        let bench = ScenarioBench(selected: arguments, scale: quick ? 0.2 : 1)
        do {
            try await bench.runAll()
        } catch {
            FileHandle.standardError.write(Data("scenario-bench: \(error)\n".utf8))
            exit(1)
        }
    }

    let selected: [String]
    let scale: Double

    func wants(_ name: String) -> Bool {
        selected.isEmpty || selected.contains { name.hasPrefix($0) }
    }

    func runs(_ count: Int) -> Int { max(3, Int(Double(count) * scale)) }

    func report(_ measurement: Measurement) {
        print(measurement.row)
    }

    /// Runs `body` once untimed, then `runs` times timed, each run doing `operations` operations, and prints
    /// the row of the per-operation times.
    func measure(
        _ name: String,
        runs: Int,
        operations: Int = 1,
        unit: String,
        _ body: () async throws -> Void
    ) async rethrows {
        try await measure(name, runs: runs, operations: operations, unit: unit, setUp: {}, { _ in try await body() })
    }

    /// Like ``measure(_:runs:operations:unit:_:)``, with an untimed `setUp` before every run whose value
    /// `body` gets.
    func measure<Input>(
        _ name: String,
        runs: Int,
        operations: Int = 1,
        unit: String,
        setUp: () async throws -> Input,
        _ body: (Input) async throws -> Void
    ) async rethrows {
        let clock = ContinuousClock()
        try await body(try await setUp())
        var samples: [Duration] = []
        samples.reserveCapacity(runs)
        for _ in 0..<runs {
            let input = try await setUp()
            let start = clock.now
            try await body(input)
            samples.append((clock.now - start) / operations)
        }
        report(Measurement(name: name, samples: samples.sorted(), unit: unit))
    }

    func runAll() async throws {
        print(Measurement.header)
        if wants("dispatch") { try await dispatch() }
        if wants("wire") { try await wire() }
        if wants("route") { try await routeResolution() }
        if wants("mapping") { try await mapping() }
        if wants("store") { try await store() }
        if wants("matching") { try await matching() }
        let needsServer = ["request", "environment", "load", "server", "workload"].contains { wants($0) }
        if needsServer {
            let workload = try BenchWorkload(count: 10_000)
            defer { workload.remove() }
            let suite = try ScenarioSuite(app: Self.app, settings: RunSettings(), directory: workload.directory)
            if wants("load") { try await load(suite, workload) }
            if wants("server") {
                try await measure(
                    "stub server start + stop (Hummingbird on 127.0.0.1, port 0)",
                    runs: runs(30),
                    unit: "start/stop"
                ) {
                    let server = suite.makeServer()
                    _ = try await server.start()
                    await server.stop()
                }
            }
            if ["request", "environment", "workload"].contains(where: { wants($0) }) {
                let server = suite.makeServer()
                let baseURL = try await server.start()
                do {
                    if wants("request") { try await requests(baseURL) }
                    if wants("environment") { try await environment(suite, baseURL) }
                    if wants("workload") { try await workloadInProcess(suite, server) }
                } catch {
                    await server.stop()
                    throw error
                }
                await server.stop()
            }
        }
        if wants("tui") {
            // Each sample is the mean of 50 frames (an event, the render into the cell buffer, the diff).
            var samples: [Duration] = []
            _ = FrameBenchmark.measureFrame(scenarios: 10_000, frames: 10)
            for _ in 0..<runs(15) {
                samples.append(FrameBenchmark.measureFrame(scenarios: 10_000, frames: 50))
            }
            report(
                Measurement(
                    name: "TUI frame at 10,000 scenarios (200×60: event, render, diff)",
                    samples: samples.sorted(),
                    unit: "frame"
                )
            )
        }
    }

    /// The app `scenario-run` drives.
    static let app = RestaurantReviews.appUnderTest

    static let location = SourceLocation(file: "bench.yml", line: 1, column: 1)

    // MARK: Engine

    /// A scenario of 100 `succeed` steps through `ScenarioRunner`, no default set-up or tear-down.
    func dispatch() async throws {
        var settings = RunSettings()
        settings.defaultSetUp = []
        settings.defaultTearDown = []
        let runner = try ScenarioRunner(registry: StepRegistry(), settings: settings, environment: [:])
        let scenario = Scenario(
            name: "dispatch",
            location: Self.location,
            feature: "Bench",
            file: "bench.yml",
            steps: (0..<100).map { Step.succeed("step \($0)") }
        )
        let events = EventCounter()
        try await measure(
            "step dispatch: scenario of 100 `succeed` steps, per step",
            runs: runs(300),
            operations: 100,
            unit: "step"
        ) {
            let summary = await runner.run([scenario]) { _ in events.add() }
            guard summary.passed == 1 else { throw BenchError.failed("dispatch: \(summary.line)") }
        }
        await measure(
            "empty scenario through ScenarioRunner (run overhead)",
            runs: runs(300),
            unit: "scenario"
        ) {
            let empty = Scenario(
                name: "empty",
                location: Self.location,
                feature: "Bench",
                file: "bench.yml",
                steps: []
            )
            await runner.run([empty]) { _ in events.add() }
        }
    }

    /// What a `--jobs` worker writes and its parent reads for one scenario of the standard workload.
    func wire() async throws {
        let id = ScenarioID(file: "Scenarios/generated.yml", name: "S0000 create review stubbed to /review expects 201")
        var events: [RunEvent] = [.scenarioStarted(id)]
        for step in 0..<8 {
            events.append(
                .stepFinished(
                    id,
                    step: step,
                    phase: step == 0 ? .setUp : .steps,
                    outcome: .passed,
                    duration: .microseconds(120)
                )
            )
        }
        events.append(.log(id, "POST /review → 201 (1 object)"))
        events.append(.log(id, "GET /restaurants → 200 (20 objects)"))
        events.append(.scenarioFinished(id, outcome: .passed, duration: .microseconds(900)))
        let lines = events.compactMap(RunEventLines.encode)
        await measure(
            "--jobs wire: encode one scenario's 12 events as JSON lines",
            runs: runs(2000),
            unit: "scenario"
        ) {
            var bytes = 0
            for event in events { bytes += RunEventLines.encode(event)?.count ?? 0 }
            if bytes == 0 { fatalError("nothing encoded") }
        }
        try await measure(
            "--jobs wire: decode one scenario's 12 event lines",
            runs: runs(2000),
            unit: "scenario"
        ) {
            for line in lines {
                guard RunEventLines.decode(line.dropLast()) != nil else {
                    throw BenchError.failed("wire: a line did not decode")
                }
            }
        }
    }

    // MARK: ObjectManager

    func routeResolution() async throws {
        guard let base = URL(string: "http://127.0.0.1:8080") else {
            throw BenchError.failed("The base URL is invalid.")
        }
        let router = Router(baseURL: base, routes: RestaurantReviews.routes)
        let key = Route.Key.class(entity: "Review", method: .post)
        let operations = 10_000
        try await measure(
            "route resolution: class route → path (`:restaurantID`)",
            runs: runs(30),
            operations: operations,
            unit: "resolution"
        ) {
            for _ in 0..<operations {
                let route = try router.route(for: key)
                blackHole(try router.path(for: route, parameters: ["restaurantID": "1"]))
            }
        }
        let pattern = PathPattern("/restaurants/:restaurantID/reviews")
        try await measure(
            "PathPattern.interpolate",
            runs: runs(30),
            operations: operations,
            unit: "interpolation"
        ) {
            for _ in 0..<operations { blackHole(try pattern.interpolate { $0 == "restaurantID" ? "1" : nil }) }
        }
        await measure("Router.url(forPath:)", runs: runs(30), operations: operations, unit: "URL") {
            for _ in 0..<operations { blackHole(router.url(forPath: "/restaurants/1/reviews")) }
        }
        try await measure(
            "stub route: replace a class route's path pattern",
            runs: runs(30),
            operations: operations,
            unit: "replacement"
        ) {
            for index in 0..<operations {
                blackHole(try router.replacePathPattern(of: key, with: index % 2 == 0 ? "/review" : "/422"))
            }
        }
    }

    func mapping() async throws {
        let data = Data(BenchWorkload.restaurantsJSON.utf8)
        try await measure(
            "parse restaurants.json (20 objects) into JSONValue",
            runs: runs(500),
            unit: "document"
        ) {
            blackHole(try JSONValue(parsing: data))
        }
        let json = try JSONValue(parsing: data)
        try await measure(
            "mapping of 20 objects into an empty context",
            runs: runs(300),
            unit: "20 objects",
            setUp: { try EntityStore(model: RestaurantReviews.model) }
        ) { store in
            let objects = try ObjectMapper().map(
                json,
                with: RestaurantReviews.restaurantMapping,
                in: store.mainContext
            )
            guard objects.count == 20 else { throw BenchError.failed("mapped \(objects.count) objects") }
        }
        guard case .array(let restaurants) = json, let first = restaurants.first else {
            throw BenchError.failed("restaurants.json is not an array")
        }
        var test = MappingTest(
            mapping: RestaurantReviews.restaurantMapping,
            sourceObject: first,
            model: RestaurantReviews.model
        )
        test.expect(from: "id", to: "restaurantID", value: 1)
        test.expect(from: "name", to: "name", value: "Restaurant 1")
        let mappingTest = test
        try await measure(
            "MappingTest.verify (1 object, 2 expectations, own store)",
            runs: runs(300),
            unit: "verify"
        ) {
            try mappingTest.verify()
        }
    }

    func store() async throws {
        try await measure("create an in-memory EntityStore (3 tables)", runs: runs(300), unit: "store") {
            blackHole(try EntityStore(model: RestaurantReviews.model))
        }
        let restaurants = try JSONValue(parsing: Data(BenchWorkload.restaurantsJSON.utf8))
        let review = try JSONValue(parsing: Data(BenchWorkload.fixtures["review.json", default: ""].utf8))
        try await measure(
            "store upsert of 21 rows: map 20 restaurants + 1 review, save",
            runs: runs(300),
            unit: "21 rows",
            setUp: { try EntityStore(model: RestaurantReviews.model) }
        ) { store in
            let mapper = ObjectMapper()
            _ = try mapper.map(restaurants, with: RestaurantReviews.restaurantMapping, in: store.mainContext)
            _ = try mapper.map(review, with: RestaurantReviews.reviewMapping, in: store.mainContext)
            try store.mainContext.save()
        }
        try await measure(
            "save of 21 mapped rows only",
            runs: runs(300),
            unit: "save",
            setUp: { () throws -> EntityStore in
                let store = try EntityStore(model: RestaurantReviews.model)
                _ = try ObjectMapper().map(
                    restaurants,
                    with: RestaurantReviews.restaurantMapping,
                    in: store.mainContext
                )
                _ = try ObjectMapper().map(review, with: RestaurantReviews.reviewMapping, in: store.mainContext)
                return store
            }
        ) { store in
            try store.mainContext.save()
        }
        let filled = try EntityStore(model: RestaurantReviews.model)
        _ = try ObjectMapper().map(restaurants, with: RestaurantReviews.restaurantMapping, in: filled.mainContext)
        try filled.mainContext.save()
        try await measure(
            "fetch 20 saved restaurants (what `expect entities` does)",
            runs: runs(300),
            unit: "fetch"
        ) {
            let fetched = try filled.mainContext.fetch("Restaurant")
            guard fetched.count == 20 else { throw BenchError.failed("fetched \(fetched.count)") }
        }
    }

    // MARK: HTTP

    /// One kept-alive GET and POST through `transport`.
    func requests(_ baseURL: URL, through transport: any HTTPTransport, named name: String) async throws {
        let client = Self.client(baseURL, through: transport)
        let url = baseURL.appendingPathComponent("restaurants")
        let operations = 50
        try await measure(
            "one loopback request: GET /restaurants, kept-alive connection (\(name))",
            runs: runs(40),
            operations: operations,
            unit: "request"
        ) {
            for _ in 0..<operations {
                let response = try await client.send(client.request(.get, url: url))
                guard response.status == 200, response.body.count == 1005 else {
                    throw BenchError.failed("GET \(url): \(response.status) \(response.bodyText)")
                }
            }
        }
        let review = baseURL.appendingPathComponent("review")
        let body = Data(#"{"review":{"title":"Whatever"}}"#.utf8)
        try await measure(
            "one loopback request: POST /review, kept-alive connection (\(name))",
            runs: runs(40),
            operations: operations,
            unit: "request"
        ) {
            for _ in 0..<operations {
                let response = try await client.send(
                    client.request(
                        .post,
                        url: review,
                        body: body,
                        headers: [HTTPHeader(name: "Content-Type", value: "application/json")]
                    )
                )
                guard response.status == 201 else { throw BenchError.failed("POST /review: \(response.status)") }
            }
        }
    }

    /// A client on `transport` that never probes the network.
    static func client(_ baseURL: URL, through transport: any HTTPTransport) -> HTTPClient {
        HTTPClient(baseURL: baseURL, transport: transport, reachabilityProbe: FixedReachabilityProbe(.reachableViaWiFi))
    }

    func requests(_ baseURL: URL) async throws {
        let transports: [(name: String, transport: any HTTPTransport)] = [
            ("NIOHTTPTransport", NIOHTTPTransport()), ("AsyncHTTPTransport", AsyncHTTPTransport()),
        ]
        for (name, transport) in transports {
            try await requests(baseURL, through: transport, named: name)
        }
        let transport = transports[0].transport
        let client = Self.client(baseURL, through: transport)
        let url = baseURL.appendingPathComponent("restaurants")
        let operations = 50
        try await measure(
            "one loopback request on a new NIOHTTPTransport (connect + shut down)",
            runs: runs(100),
            unit: "request"
        ) {
            let fresh = NIOHTTPTransport()
            let response = try await fresh.send(HTTPRequest(method: .get, url: url))
            await fresh.shutdown()
            guard response.status == 200 else { throw BenchError.failed("GET /restaurants: \(response.status)") }
        }
        let manager = ObjectManager(
            baseURL: baseURL,
            client: client,
            store: try EntityStore(model: RestaurantReviews.model)
        )
        try RestaurantReviews.configure(manager)
        try await measure(
            "ObjectManager.getObjects(route restaurants): queue, HTTP, map, save",
            runs: runs(40),
            operations: operations,
            unit: "request"
        ) {
            for _ in 0..<operations {
                let result = try await manager.getObjects(forRouteNamed: "restaurants")
                guard result.objects.count == 20 else { throw BenchError.failed("mapped \(result.objects.count)") }
            }
        }
        for (_, transport) in transports { await transport.shutdown() }
    }

    /// The default set-up and tear-down pair every scenario pays (`TestFactory` of the example app).
    func environment(_ suite: ScenarioSuite, _ baseURL: URL) async throws {
        let factory = suite.factory
        try await measure(
            "TestFactory set up + tear down (new manager and client, emptied store)",
            runs: runs(200),
            unit: "scenario"
        ) {
            try await factory.setUp(baseURL: baseURL)
            try await factory.tearDown()
        }
    }

    // MARK: Scenarios

    func load(_ suite: ScenarioSuite, _ workload: BenchWorkload) async throws {
        try await measure(
            "ScenarioSuite init (registry, server.yml, vocabulary)",
            runs: runs(50),
            unit: "suite"
        ) {
            blackHole(try ScenarioSuite(app: Self.app, settings: RunSettings(), directory: workload.directory))
        }
        let first200 = workload.directory.appendingPathComponent("first200.yml")
        try Data(BenchWorkload.scenarioFile(count: 200).utf8).write(to: first200)
        try await measure(
            "load and validate 200 scenarios from YAML (the N=200 run's load)",
            runs: runs(30),
            unit: "200 scenarios"
        ) {
            let scenarios = try suite.loadScenarios(paths: [first200.path])
            guard scenarios.count == 200 else { throw BenchError.failed("loaded \(scenarios.count)") }
        }
        try await measure(
            "load and validate 10,000 scenarios from YAML (70,000 steps)",
            runs: runs(5),
            unit: "10,000 scenarios"
        ) {
            let scenarios = try suite.loadScenarios(paths: [workload.scenarioFile.path])
            guard scenarios.count == 10_000 else { throw BenchError.failed("loaded \(scenarios.count)") }
        }
        // The same 10,000 scenarios from 2,500 outlines of four rows: substituting rows costs no more
        // than composing the scenarios written out.
        let outlines = workload.directory.appendingPathComponent("outlines.yml")
        try Data(BenchWorkload.outlineFile(count: 10_000).utf8).write(to: outlines)
        try await measure(
            "load and validate 10,000 scenarios from 2,500 outlines of 4 rows (70,000 steps)",
            runs: runs(5),
            unit: "10,000 scenarios"
        ) {
            let scenarios = try suite.loadScenarios(paths: [outlines.path])
            guard scenarios.count == 10_000 else { throw BenchError.failed("loaded \(scenarios.count)") }
        }
        // A file of 8,000 unknown steps: every error located and suggested, the first 100 rendered.
        let errors = workload.directory.appendingPathComponent("errors.yml")
        let steps = (0..<8000).map { "      - nope \($0)" }.joined(separator: "\n")
        try Data(("scenarios:\n  - scenario: A\n    steps:\n" + steps + "\n").utf8).write(to: errors)
        try await measure(
            "load a file of 8,000 unknown steps and render its diagnostics",
            runs: runs(5),
            unit: "8,000 errors"
        ) {
            do {
                _ = try suite.loadScenarios(paths: [errors.path])
                throw BenchError.failed("the file loaded")
            } catch let list as DiagnosticList {
                guard list.diagnostics.count == 8000 else {
                    throw BenchError.failed("\(list.diagnostics.count) errors")
                }
                blackHole(list.description)
            }
        }
    }

    /// The standard workload run in-process against one stub server: per-scenario time without process start.
    func workloadInProcess(_ suite: ScenarioSuite, _ server: StubServer) async throws {
        let count = 200
        let scenarios = try suite.loadScenarios(paths: [suite.directory.appendingPathComponent("Scenarios").path])
            .prefix(count)
        let runner = try suite.makeRunner(server: server, environment: [:])
        let times = StepTimes()
        let timed = await runner.run(Array(scenarios)) { times.handle($0) }
        guard timed.passed == count else { throw BenchError.failed("workload (step times): \(timed.line)") }
        for row in times.rows { print(row) }
        // The same without `check for leaks` too: what the check costs.
        var unchecked = suite.settings
        unchecked.leaks = .off
        let uncheckedRunner = try ScenarioSuite(app: Self.app, settings: unchecked, directory: suite.directory)
            .makeRunner(server: server, environment: [:])
        for (label, runner) in [
            ("N=200 (set-up, 7 steps, tear-down, check for leaks)", runner), ("N=200, leaks: off", uncheckedRunner),
        ] {
            try await measure(
                "standard workload in-process, \(label)",
                runs: runs(5),
                operations: count,
                unit: "scenario"
            ) {
                let summary = await runner.run(Array(scenarios)) { _ in }
                guard summary.passed == count else {
                    throw BenchError.failed("workload, \(label): \(summary.line)")
                }
            }
        }
    }
}
