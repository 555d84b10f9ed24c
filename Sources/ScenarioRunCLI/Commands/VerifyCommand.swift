import ArgumentParser
import Contract
import Diagnostics
import Foundation
import ObjectManager
import RunPipeline
import Scenarios
import SharedValues
import Steps
import StubServer
import Synchronization

/// `scenario-run verify --target URL` — provider verification: one request per `server.yml` route sent to
/// the real API, its status and body shape compared with the route's, reported as a run (plain lines,
/// `--junit`), each route a scenario.
struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Send one request per server.yml route to the real API and compare its answers with the fixtures.",
        discussion: """
            Each route's request (its method, its path with the document's example values or 1, the query \
            and header values its when: requires) goes to the target; the answer must have the route's \
            status and, for a JSON fixture, the same shape: the same JSON types, every key of the fixture \
            (the provider may add others), array items like the fixture's first. Only GET, HEAD and \
            OPTIONS are sent unless --allow-writes; routes marked contract: off (the tests' own) are not \
            sent. Exit 1 when a route differs. See docs/contract.md.
            """
    )

    @Option(help: ArgumentHelp("The real API's base URL, like https://staging.example.com/api.", valueName: "URL"))
    var target: String

    @Flag(help: "Also send the routes that change data (POST, PUT, PATCH, DELETE).")
    var allowWrites = false

    @Option(
        name: .customLong("header"),
        help: ArgumentHelp(
            "A header sent with every request, like 'Authorization: Bearer $TOKEN'; repeated for more.",
            discussion: "`$NAME` and `${NAME}` are read from the environment (an unset one is an error); header "
                + "values are never printed.",
            valueName: "HEADER"
        )
    )
    var headers: [String] = []

    @Option(help: ArgumentHelp("Also write a JUnit XML report, a testcase per route.", valueName: "FILE"))
    var junit: String?

    @Option(
        help: ArgumentHelp(
            "The OpenAPI document whose path examples fill the routes' placeholders (also 'openapi:').",
            valueName: "FILE"
        )
    )
    var openapi: String?

    @OptionGroup var project: ProjectOptions

    /// How long the provider may take to answer one request.
    static let requestTimeout = Duration.seconds(30)

    func validate() throws {
        try ProjectOptions.validateTarget(target)
        for header in headers where !header.contains(":") {
            throw ValidationError("--header takes 'Name: value', like 'Authorization: Bearer $TOKEN'.")
        }
        let environment = ProcessInfo.processInfo.environment
        for header in headers {
            // An unset variable would send an empty value, and the provider's 401 would look like drift.
            guard let name = Self.unset(in: header, environment: environment).first else { continue }
            let field = header.split(separator: ":", maxSplits: 1).first.map(String.init) ?? header
            throw ValidationError(
                "--header '\(field.trimmingCharacters(in: .whitespaces))': the environment variable '\(name)' is "
                    + "not set."
            )
        }
        for header in headers {
            // Refused once, here, saying why, rather than by every request the check would send; named by its
            // field only (header values are never printed).
            let field = Self.header(header, environment: environment)
            guard let reason = field.unsendableReason else { continue }
            throw ValidationError("--header '\(field.name)': \(reason).")
        }
        if let junit, let problem = FileWriteError.problem(writing: project.resolved(junit)) {
            throw ValidationError("--junit: \(problem)")
        }
    }

    /// The field `--header 'Name: value'` sends: the name and the value trimmed, the value's variables read
    /// from the environment.
    static func header(_ text: String, environment: [String: String]) -> HTTPHeader {
        let (name, value) = text.split(separator: ":", maxSplits: 1).map(String.init).pair
        return HTTPHeader(
            name: name.trimmingCharacters(in: .whitespaces),
            value: expanded(value.trimmingCharacters(in: .whitespaces), environment: environment)
        )
    }

    func run() async throws {
        try project.enter()
        let environment = ProcessInfo.processInfo.environment
        let directory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let suite: ScenarioSuite
        do throws(DiagnosticList) {
            var settings = try project.settings(environment: environment)
            if let openapi { settings.openapi = openapi }
            suite = try ScenarioSuite(app: RootCommand.appUnderTest, settings: settings, directory: directory)
            if !suite.serverDiagnostics.isEmpty { throw DiagnosticList(suite.serverDiagnostics) }
        } catch {
            throw Terminal.failLoading(error)
        }
        let sent = headers.map { Self.header($0, environment: environment) }
        let output = StandardOutput()
        let reporter = PlainReporter(colors: Terminal.colors(environment: environment)) { output.write($0) }
        let junitReporter = junit.map { _ in JUnitReporter() }
        let emit: (RunEvent) -> Void = { event in
            reporter.handle(event)
            junitReporter?.handle(event)
        }
        var checks: [(RunPlan.PlannedScenario, ServerRoute, ProviderCheck.Plan)] = []
        var uncontracted = 0
        for route in suite.serverRoutes.routes {
            guard let location = route.location else { continue }
            if !route.heldToContract { uncontracted += 1 }
            let plan = ProviderCheck.plan(for: route, document: suite.document, allowWrites: allowWrites, headers: sent)
            var skip: String?
            var description = "send it to the provider"
            switch plan {
            case .skip(let reason): skip = reason
            case .send(let method, let target, _, _): description = "\(method) \(target)"
            }
            let planned = RunPlan.PlannedScenario(
                id: ScenarioID(
                    file: location.file,
                    name: "\(route.method ?? "GET") \(route.path.rawValue) (line \(location.line))"
                ),
                feature: "verify",
                tags: [],
                location: location,
                steps: [RunPlan.PlannedStep(description: description, phase: .steps, location: location)],
                skip: skip
            )
            checks.append((planned, route, plan))
        }
        var tally = RunTally()
        let started = ContinuousClock.now
        let runPlan = RunPlan(scenarios: checks.map(\.0))
        tally.record(.runStarted(runPlan))
        emit(.runStarted(runPlan))
        let transport = AsyncHTTPTransport(
            trustedCertificates: try ProjectOptions.trustedCertificates(
                environment: ProcessInfo.processInfo.environment
            )
        )
        let base = target.hasSuffix("/") ? String(target.dropLast()) : target
        // Ctrl-C: the request on its way is abandoned, the routes not verified are reported skipped, and
        // the summary and JUnit report are still written (exit 1); a second one exits at once.
        let interruption = Interruption()
        let interrupts = InterruptHandler(onFirst: { interruption.interrupt() })
        defer { interrupts.cancel() }
        for (planned, route, plan) in checks {
            if interruption.isInterrupted { break }
            let id = planned.id
            emit(.scenarioStarted(id))
            let begun = ContinuousClock.now
            var outcome = ScenarioOutcome.skipped
            if case .send(let method, let path, let headers, let body) = plan {
                emit(.stepStarted(id, step: 0, phase: .steps))
                let fixtures = suite.fixtures
                let fixturesName = suite.settings.fixtures
                let sending = Task {
                    await Self.check(
                        route,
                        request: (method, base + path, headers, body),
                        fixtures: fixtures,
                        fixturesName: fixturesName,
                        transport: transport
                    )
                }
                interruption.track(sending)
                let reasons = await sending.value
                if interruption.isInterrupted { break }  // abandoned: reported skipped with the rest
                let step: StepOutcome =
                    reasons.isEmpty
                    ? .passed : .failed(reason: reasons.joined(separator: "\n"), location: planned.location)
                emit(.stepFinished(id, step: 0, phase: .steps, outcome: step, duration: ContinuousClock.now - begun))
                outcome = reasons.isEmpty ? .passed : .failed(step: 0, reason: reasons.joined(separator: "\n"))
            }
            let finished = RunEvent.scenarioFinished(id, outcome: outcome, duration: ContinuousClock.now - begun)
            tally.record(finished)
            emit(finished)
        }
        await transport.shutdown()
        if uncontracted > 0 {
            output.write(
                uncontracted == 1
                    ? "1 route skipped: it is marked contract: off.\n"
                    : "\(uncontracted) routes skipped: they are marked contract: off.\n"
            )
        }
        let cancelled = interruption.isInterrupted
        for event in tally.finish(duration: ContinuousClock.now - started, cancelled: cancelled) { emit(event) }
        if let junit, let junitReporter {
            do {
                try junitReporter.write(to: URL(fileURLWithPath: junit))
            } catch {
                Terminal.printError("error: The JUnit report was not written. \(error)")
                throw ExitCode(1)
            }
        }
        if tally.summary.failed > 0 || cancelled { throw ExitCode(1) }
    }

    /// Whether Ctrl-C came, and the request on its way, to abandon.
    private final class Interruption: Sendable {
        private let state = Mutex<(interrupted: Bool, current: Task<[String], Never>?)>((false, nil))

        var isInterrupted: Bool { state.withLock { $0.interrupted } }

        func track(_ task: Task<[String], Never>) {
            let interrupted = state.withLock { state in
                state.current = task
                return state.interrupted
            }
            if interrupted { task.cancel() }
        }

        func interrupt() {
            state.withLock { state in
                state.interrupted = true
                return state.current
            }?.cancel()
        }
    }

    /// Sends the route's request and compares the answer; the reasons it differs (empty: it agrees).
    private static func check(
        _ route: ServerRoute,
        request: (method: String, url: String, headers: [HTTPHeader], body: Data?),
        fixtures: URL,
        fixturesName: String,
        transport: AsyncHTTPTransport
    ) async -> [String] {
        guard let url = URL(string: request.url), let method = HTTPMethod(rawValue: request.method) else {
            return ["cannot send \(request.method) \(request.url)"]
        }
        let answer = route.responses.first ?? route.answer
        let expected = RouteContract.body(of: answer, fixtures: fixtures, shownAs: fixturesName)
        do {
            let response = try await transport.send(
                HTTPRequest(
                    method: method,
                    url: url,
                    headers: request.headers,
                    body: request.body,
                    timeout: requestTimeout
                )
            )
            let differences = ProviderCheck.differences(
                expectedStatus: answer.status,
                expected: expected?.0,
                status: response.status,
                body: response.body
            )
            guard let place = expected?.1 else { return differences }
            // A place in the body is named with the fixture it is compared with.
            return differences.map { $0.hasPrefix("$") ? "\(place) \($0)" : $0 }
        } catch {
            return ["the provider did not answer: \(error)"]
        }
    }

    /// `$NAME` or `${NAME}` (made on each use: a `Regex` is not `Sendable`).
    private static var variable: Regex<(Substring, Substring?, Substring?)> {
        /\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/
    }

    /// `$NAME` and `${NAME}` replaced by the environment's values (an unset one by nothing: `validate`
    /// refuses those).
    static func expanded(_ text: String, environment: [String: String]) -> String {
        text.replacing(variable) { match in environment[String(match.1 ?? match.2 ?? "")] ?? "" }
    }

    /// The names of the variables `text` reads that the environment does not set.
    static func unset(in text: String, environment: [String: String]) -> [String] {
        text.matches(of: variable).map { String($0.1 ?? $0.2 ?? "") }.filter { environment[$0] == nil }
    }
}

extension Array where Element == String {
    /// The first two elements (the second empty when missing).
    fileprivate var pair: (String, String) { (first ?? "", count > 1 ? self[1] : "") }
}
