import Foundation
import TestSupport
import Testing

/// `--html FILE`: the page is loaded in a real browser (headless Chromium, `--dump-dom`: the DOM after the
/// page's script ran) and checked as a person would read it — counts, failure reasons with their
/// `FILE:LINE`, request bodies — and for hostile names, that they are shown as text and run nothing. A
/// screenshot of each page is kept under `.build/html-report/` (CI keeps it as an artifact).
@Suite(.serialized, .enabled(if: ExternalTool.available("chromium"), "needs chromium (apt-get install chromium)"))
struct HTMLReportTests {
    static let screenshots = CLI.repositoryRoot.appendingPathComponent(".build/html-report")

    /// The page's DOM after its script ran, in headless Chromium (`options` before the page: e.g. a virtual
    /// time budget, so that the page's timers run first).
    static func dom(_ page: URL, options: [String] = []) async throws -> String {
        let profile = CLI.scratchRoot.appendingPathComponent("chromium-\(UUID().uuidString)")
        let result = try await CLI.Running(
            [
                "120", "chromium", "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(profile.path)",
            ] + options + ["--dump-dom", page.absoluteString],
            directory: page.deletingLastPathComponent(),
            environment: [:],
            executable: URL(fileURLWithPath: "/usr/bin/timeout")
        ).wait()
        #expect(result.status == 0, "chromium: \(result.stderr.suffix(2000))")
        return result.stdout
    }

    /// Takes a screenshot of the page into `.build/html-report/NAME.png` and says where.
    static func screenshot(_ page: URL, name: String) async throws {
        try FileManager.default.createDirectory(at: screenshots, withIntermediateDirectories: true)
        let file = screenshots.appendingPathComponent("\(name).png")
        try? FileManager.default.removeItem(at: file)
        let profile = CLI.scratchRoot.appendingPathComponent("chromium-\(UUID().uuidString)")
        let result = try await CLI.Running(
            [
                "120", "chromium", "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                "--user-data-dir=\(profile.path)", "--screenshot=\(file.path)", "--window-size=1280,2000",
                page.absoluteString,
            ],
            directory: page.deletingLastPathComponent(),
            environment: [:],
            executable: URL(fileURLWithPath: "/usr/bin/timeout")
        ).wait()
        #expect(result.status == 0, "chromium: \(result.stderr.suffix(2000))")
        #expect(FileManager.default.fileExists(atPath: file.path))
        print("HTML report screenshot: \(file.path)")
    }

    /// The page's data blocks (`<script type="application/json" class="run-data" …>`), parsed, as the page's
    /// script reads them.
    static func dataBlocks(_ page: URL) throws -> [[String: Any]] {
        let html = try String(contentsOf: page, encoding: .utf8)
        return try html.matches(of: /<script type="application\/json" class="run-data"[^>]*>(.*?)<\/script>/).map {
            match in
            try #require(JSONSerialization.jsonObject(with: Data(match.1.utf8)) as? [String: Any])
        }
    }

    static func scratch(_ name: String) throws -> URL {
        let folder = CLI.scratchRoot.appendingPathComponent("html-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The demo's failing examples with passing scenarios, in two workers: the counts of the run's tally,
    /// each failure's reason with its `FILE:LINE` and source line, the request the app sent and what the
    /// stub server answered (bodies pretty-printed), the route that answered, and the JUnit file's new
    /// attributes and request log — of every testcase, passed ones included. A passed scenario's requests
    /// keep their bodies too (cut sooner: ``LoggedRequest/passedBodyBytes``).
    @Test func theFailingExamplesShowCountsFailuresAndRequests() async throws {
        let folder = try Self.scratch("failing")
        let page = folder.appendingPathComponent("report.html")
        let junit = folder.appendingPathComponent("report.xml")
        let result = try await CLI.run([
            "--ci", "--jobs", "2", "--html", page.path, "--junit", junit.path, "Scenarios/examples-failing",
            "Scenarios/reviews.yml",
        ])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let summary = try #require(result.stdout.split(separator: "\n").last.map(String.init))
        let dom = try await Self.dom(page)
        // The same totals as the summary line (RunTally's).
        let passed = try #require(summary.firstMatch(of: /(\d+) passed/)?.1)
        #expect(dom.contains(#"id="count-passed">\#(passed) passed<"#), "\(summary)")
        #expect(dom.contains(#"id="count-failed">3 failed<"#))
        #expect(dom.contains(#"id="count-flaky">0 flaky<"#))
        #expect(dom.contains("at Scenarios/examples-failing/failing.yml:10"))
        #expect(dom.contains("1 review draft still saved"))
        #expect(dom.contains("- expect response: { status: 201 }"), "the failing step's source line")
        // The first failure is open: its request, the route that answered and both bodies.
        #expect(dom.contains("route Fixtures/server.yml:7"))
        #expect(dom.contains(#""title": "Whatever""#), "the request body, pretty-printed")
        #expect(dom.contains("Invalid object."), "the response body")
        #expect(dom.contains("worker "), "the worker it ran in")
        #expect(!dom.contains(#"class="banner""#), "a run that finished")
        try await Self.screenshot(page, name: "failing-examples")

        let xml = try String(contentsOf: junit, encoding: .utf8)
        #expect(
            xml.contains(#"name="Expecting the wrong status" file="Scenarios/examples-failing/failing.yml" line="6""#)
        )
        #expect(xml.contains("request: POST /422 → 422 (Fixtures/server.yml:7)"), "\(xml)")
        let testcases = xml.components(separatedBy: "<testcase ").dropFirst()
        #expect(
            testcases.contains { !$0.contains("<failure") && $0.contains("request: POST /review → 201") },
            "a passed testcase logs its requests too"
        )

        // In the data: every request has its bodies and their lengths, a failed scenario's and a passed one's.
        let scenarios = try Self.dataBlocks(page).filter { $0["k"] as? String == "s" }
        let failedBlocks = scenarios.filter { $0["o"] as? String == "failed" }
        let passedBlocks = scenarios.filter { $0["o"] as? String == "passed" }
        #expect(failedBlocks.count == 3)
        func requests(_ block: [String: Any]) -> [[Any]] { block["requests"] as? [[Any]] ?? [] }
        #expect(failedBlocks.contains { !requests($0).isEmpty })
        for request in failedBlocks.flatMap(requests) {
            #expect(request[5] as? String != nil && request[7] as? String != nil, "\(request)")
        }
        let passedRequests = passedBlocks.flatMap(requests)
        #expect(passedRequests.contains { ($0[8] as? Int ?? 0) > 0 }, "a passed scenario's answer had a body")
        for request in passedRequests {
            #expect(request[5] as? String != nil && request[7] as? String != nil, "\(request)")
            #expect(request[6] as? Int != nil && request[8] as? Int != nil)
        }
        // A passed scenario opened: its requests are listed with their bodies.
        let shown = try #require(
            passedBlocks.first { requests($0).contains { ($0[8] as? Int ?? 0) > 0 } }?["i"] as? Int,
            "a passed scenario whose answer had a body"
        )
        let passedDOM = try await Self.dom(try #require(URL(string: page.absoluteString + "#s=\(shown)")))
        #expect(passedDOM.contains("route Fixtures/server.yml:"), "its requests are listed")
        #expect(passedDOM.contains("Response body ("), "\(passedDOM.suffix(3000))")
        #expect(!passedDOM.contains("): not kept<"))
    }

    /// A body longer than the report keeps: a passed try's is cut at ``LoggedRequest/passedBodyBytes``, a
    /// failed try's at ``LoggedRequest/bodyBytes``, and the page says how much it shows of how much, and
    /// both caps.
    @Test func aLongBodyIsCutAndThePageSaysWhere() async throws {
        let post = """
                  - stub route: { class: Review, method: POST, to: /422 }
                  - post object: { class: Review, attributes: { restaurantID: 1, title: Long } }
            """
        let project = try CLI.project([
            "Scenarios/long.yml": """
            scenarios:
              - scenario: Passing
                steps:
            \(post)
                  - expect response: { status: 422 }
              - scenario: Failing
                steps:
            \(post)
                  - expect response: { status: 201 }
            """
        ])
        let items = (0..<400).map { #"{"id": \#($0), "name": "Restaurant number \#($0)"}"# }
        try ("{\"errors\": [" + items.joined(separator: ", ") + "]}").write(
            to: project.appendingPathComponent("Fixtures/422.json"),
            atomically: true,
            encoding: .utf8
        )
        let page = project.appendingPathComponent("report.html")
        let result = try await CLI.run(["--ci", "--html", page.path], directory: project)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let blocks = try Self.dataBlocks(page).filter { $0["k"] as? String == "s" }
        for (outcome, kept) in [("passed", "2.0 KiB"), ("failed", "16 KiB")] {
            let block = try #require(blocks.first { $0["o"] as? String == outcome })
            let request = try #require((block["requests"] as? [[Any]])?.first)
            let length = try #require(request[8] as? Int)
            #expect(length > 16 * 1024)
            let index = try #require(block["i"] as? Int)
            let dom = try await Self.dom(try #require(URL(string: page.absoluteString + "#s=\(index)")))
            let shownLength = Int((Double(length) / 1024).rounded())
            #expect(
                dom.contains(
                    "Response body (\(shownLength) KiB, the first \(kept) shown: the report keeps 16 KiB of each body"
                        + " of a try that failed, 2.0 KiB of one that passed)"
                ),
                "\(outcome): \(dom.suffix(4000))"
            )
        }
    }

    /// Names, reasons and bodies from files and apps are text: a scenario named `<script>…`, a feature and a
    /// fixture that try to close the data block and add an element with a handler. Nothing they hold runs
    /// (the page's script would set `data-pwned`), no element of theirs exists, and they read as written.
    @Test func hostileNamesAndBodiesAreShownAsTextAndRunNothing() async throws {
        let hostileBody =
            #"{"error": "</script><img src=x onerror=\"document.body.setAttribute('data-pwned','img')\">"}"#
        let project = try CLI.project([
            "Scenarios/hostile.yml": """
            feature: "</script><script>document.body.setAttribute('data-pwned','feature')</script>"
            scenarios:
              - scenario: "<script>document.body.setAttribute('data-pwned','name')</script>"
                steps:
                  - stub route: { class: Review, method: POST, to: /422 }
                  - post object: { class: Review, attributes: { restaurantID: 1, title: "<b>bold</b>" } }
                  - expect response: { status: 201 }
            """
        ])
        try hostileBody.write(
            to: project.appendingPathComponent("Fixtures/422.json"),
            atomically: true,
            encoding: .utf8
        )
        let page = project.appendingPathComponent("report.html")
        let result = try await CLI.run(["--ci", "--html", page.path], directory: project)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let dom = try await Self.dom(page)
        #expect(dom.contains(#"id="count-failed">1 failed<"#), "the page's own script ran")
        #expect(!dom.contains(#"data-pwned=""#), "no hostile script or handler ran")
        #expect(!dom.contains("<img"), "no hostile element exists")
        #expect(!dom.contains("<b>"))
        #expect(dom.contains("&lt;script&gt;document.body.setAttribute('data-pwned','name')&lt;/script&gt;"))
        #expect(dom.contains("&lt;/script&gt;&lt;img src=x onerror="), "the fixture's body, as text")
        #expect(dom.contains("&lt;b&gt;bold&lt;/b&gt;"), "the request body, as text")
        try await Self.screenshot(page, name: "hostile-names")
    }

    /// Ctrl-C: the running scenario's tear-down runs, the rest are skipped, and the page says it was
    /// cancelled — with the totals of the summary line. Killed outright (SIGKILL, as after a second
    /// Ctrl-C), the page still opens, shows what finished and says the run did not finish.
    @Test func aCancelledOrKilledRunLeavesAWholePageThatSaysSo() async throws {
        let files = [
            "Scenarios/long.yml": """
            scenarios:
              - scenario: Quick
                steps: [succeed]
              - scenario: Long
                steps:
                  - wait: 30
              - scenario: Never started
                steps: [succeed]
            """
        ]
        for signal in [SIGINT, SIGKILL] {
            let project = try CLI.project(files)
            let page = project.appendingPathComponent("report.html")
            let events = project.appendingPathComponent("events.jsonl")
            let running = try CLI.Running(
                ["--ci", "--html", page.path, "--events", events.path],
                directory: project,
                environment: [:]
            )
            // Once Long is under way and Quick's part of the page is on disk.
            #expect(
                await eventually {
                    CLI.eventsSayStarted("Long", file: "Scenarios/long.yml", in: events)
                        && ((try? String(contentsOf: page, encoding: .utf8)) ?? "").contains(#""k":"s""#)
                }
            )
            kill(running.process.processIdentifier, signal)
            let result = await running.wait()
            let dom = try await Self.dom(page)
            #expect(dom.contains(#"id="count-passed">1 passed<"#), "\(dom.suffix(3000))")
            if signal == SIGINT {
                #expect(result.status == 1)
                #expect(result.stdout.hasSuffix("1 passed, 1 failed, 1 skipped\n"), "\(result.stdout)")
                #expect(dom.contains(#"class="banner">This run was cancelled"#))
                #expect(dom.contains(#"id="count-skipped">1 skipped<"#))
                #expect(dom.contains(#"id="count-failed">1 failed<"#))
            } else {
                #expect(result.status == 128 + SIGKILL || result.status == SIGKILL)
                #expect(dom.contains(#"class="banner">This run did not finish"#))
                #expect(dom.contains("stops after 1 of 3 scenarios"))
            }
        }
    }

    /// A worker that crashes fails its scenario with the reason, the run goes on in a new worker, and the
    /// page is whole and says why that scenario failed.
    @Test func aCrashedWorkerIsShownAsItsScenariosFailure() async throws {
        let project = try CLI.project([
            "Scenarios/faults.yml": """
            feature: Faults
            scenarios:
              - scenario: Before
                steps: [succeed]
              - scenario: Crashes
                steps:
                  - crash: boom in app code
              - scenario: After
                steps: [succeed]
            """
        ])
        let page = project.appendingPathComponent("report.html")
        let result = try await CLI.run(
            ["--ci", "--html", page.path],
            directory: project,
            executable: CLI.faultsBinary
        )
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let dom = try await Self.dom(page)
        #expect(dom.contains(#"id="count-passed">2 passed<"#))
        #expect(dom.contains(#"id="count-failed">1 failed<"#))
        #expect(dom.contains("The process running this scenario crashed: Fatal error: boom in app code"))
        #expect(!dom.contains(#"class="banner""#), "a run that finished")
    }

    /// The filter box and the keys, as a person uses them: `/` focuses the filter, typing narrows the list
    /// (after the page's 120 ms pause), `Enter` leaves the box and opens the first match, `j` and `k` move
    /// through the scenarios. A driver script is added after the page's data in a copy of the page (with
    /// its hash in the copy's policy: nothing else may run) and sends the page the keys and the input
    /// event; what it saw is read back from the DOM.
    @Test func theFilterBoxAndTheKeysMoveThroughTheScenarios() async throws {
        let project = try CLI.project([
            "Scenarios/keys.yml": """
            feature: Keys
            scenarios:
              - scenario: Alpha fails
                steps:
                  - fail: on purpose
              - scenario: Bravo passes
                tags: [Smoke]
                steps: [succeed]
              - scenario: Charlie passes
                steps: [succeed]
            """
        ])
        let page = project.appendingPathComponent("report.html")
        let result = try await CLI.run(["--ci", "--html", page.path], directory: project)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let driver = """

            document.addEventListener('DOMContentLoaded', function () {
              var seen = [];
              function key(target, k) { target.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true })); }
              function shown() { var h = document.querySelector('#detail h2'); return h ? h.textContent : ''; }
              function note(what) { seen.push(what); document.body.setAttribute('data-seen', JSON.stringify(seen)); }
              var filter = document.getElementById('filter');
              note('open:' + shown());
              key(document.body, '/');
              note('focus:' + (document.activeElement === filter));
              filter.value = 'charlie';
              filter.dispatchEvent(new Event('input', { bubbles: true }));
              setTimeout(function () {
                note('hint:' + document.querySelector('#list .hint').textContent);
                key(filter, 'Enter');
                note('enter:' + shown() + ':' + (document.activeElement !== filter));
                filter.value = '';
                filter.dispatchEvent(new Event('input', { bubbles: true }));
                setTimeout(function () {
                  key(document.body, 'k');
                  note('k:' + shown());
                  key(document.body, 'k');
                  note('k:' + shown());
                  key(document.body, 'j');
                  note('j:' + shown());
                  filter.value = '@smoke';
                  filter.dispatchEvent(new Event('input', { bubbles: true }));
                  setTimeout(function () {
                    var rows = document.querySelectorAll('#list .row .name');
                    note('tag:' + document.querySelector('#list .hint').textContent + ':' + (rows[0] ? rows[0].textContent : ''));
                    filter.value = '';
                    filter.dispatchEvent(new Event('input', { bubbles: true }));
                    var status = document.getElementById('status');
                    status.value = 'failed';
                    status.dispatchEvent(new Event('change', { bubbles: true }));
                    setTimeout(function () {
                      var rows = document.querySelectorAll('#list .row .name');
                      note('status:' + document.querySelector('#list .hint').textContent + ':' + (rows[0] ? rows[0].textContent : ''));
                    }, 500);
                  }, 500);
                }, 500);
              }, 500);
            });

            """
        let seen = try await Self.driven(page, by: driver)
        #expect(
            seen
                == #"["open:Alpha fails","focus:true","hint:1 matching","enter:Charlie passes:true","k:Bravo passes","k:Alpha fails","j:Bravo passes","tag:1 matching:Bravo passes","status:1 matching:Alpha fails"]"#
        )
    }

    /// Runs `driver` (a script that records what it saw with `note(…)`-style calls into the body's `data-seen`
    /// attribute) in a copy of `page` whose policy also allows it, and returns `data-seen`, unescaped.
    static func driven(_ page: URL, by driver: String) async throws -> String {
        let project = page.deletingLastPathComponent()
        // Its hash for the page's policy, with Python's hashlib (python3 is on every machine CI runs on).
        let hashed = try await CLI.Running(
            [
                "-c",
                "import base64, hashlib, sys; print(base64.b64encode(hashlib.sha256(sys.argv[1].encode()).digest()).decode())",
                driver,
            ],
            directory: project,
            environment: [:],
            executable: URL(fileURLWithPath: ExternalTool.path("python3") ?? "/usr/bin/python3")
        ).wait()
        let hash = hashed.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(hashed.status == 0 && hash.count == 44, "\(hashed.stderr)")
        var html = try String(contentsOf: page, encoding: .utf8)
        let policy = try #require(html.firstMatch(of: /script-src ('sha256-[^']+')/))
        html.replaceSubrange(policy.range, with: "script-src \(policy.1) 'sha256-\(hash)'")
        let driven = project.appendingPathComponent("driven-\(UUID().uuidString).html")
        try (html + "<script>" + driver + "</script>\n").write(to: driven, atomically: true, encoding: .utf8)
        let dom = try await Self.dom(driven, options: ["--virtual-time-budget=10000"])
        let seen = try #require(dom.firstMatch(of: /data-seen="([^"]*)"/)?.1, "\(dom.suffix(3000))")
        return String(seen).replacing("&quot;", with: "\"").replacing("&amp;", with: "&")
    }

    /// `html report:` in `scenario-run.yml` writes the page. A retried scenario shows its tries and the
    /// failed one, `--repeat` shows runs, not tries; the summary has the `--shuffle` seed; the timeline a
    /// lane with a bar per scenario.
    @Test func triesRunsSeedAndTimelineAreShown() async throws {
        let project = try CLI.project([
            "scenario-run.yml": "html report: report.html\n",
            "Scenarios/flaky.yml": RepeatAndRetryCLITests.scenarios,
        ])
        let page = project.appendingPathComponent("report.html")
        let retried = try await CLI.run(
            ["--ci", "--retries", "2", "--shuffle", "7"],
            directory: project,
            executable: CLI.faultsBinary
        )
        #expect(retried.status == 1, "\(retried.stdout)\(retried.stderr)")
        func index(of name: String) throws -> Int {
            let plan = try #require(Self.dataBlocks(page).first { $0["k"] as? String == "plan" })
            let names = try #require(plan["scenarios"] as? [[Any]]).map { $0[1] as? String }
            return try #require(names.firstIndex(of: name), "\(names)")
        }
        let flaky = try #require(URL(string: page.absoluteString + "#s=\(try index(of: "Flaky once"))"))
        let dom = try await Self.dom(flaky)
        #expect(dom.contains("2 tries"), "\(dom.suffix(3000))")
        #expect(dom.contains("Try 1 failed at step 2"), "step 1 is the set-up")
        #expect(dom.contains("--shuffle 7"))
        let driver = """

            document.addEventListener('DOMContentLoaded', function () {
              var timeline = document.getElementById('timeline');
              timeline.open = true;
              setTimeout(function () {
                var lanes = Array.prototype.map.call(timeline.querySelectorAll('.lane'), function (lane) {
                  return lane.querySelector('.lab').textContent + ':' + lane.querySelectorAll('i').length;
                });
                document.body.setAttribute('data-seen', JSON.stringify(lanes));
              }, 500);
            });

            """
        #expect(try await Self.driven(page, by: driver) == #"["worker 1:3"]"#)

        let repeated = try await CLI.run(["--ci", "--repeat", "2"], directory: project, executable: CLI.faultsBinary)
        #expect(repeated.status == 1, "\(repeated.stdout)\(repeated.stderr)")
        let steady = try #require(URL(string: page.absoluteString + "#s=\(try index(of: "Steady"))"))
        let runs = try await Self.dom(steady)
        #expect(runs.contains("2 runs (--repeat 2)"), "\(runs.suffix(3000))")
        #expect(runs.contains("Steps (the last run)"))
        #expect(!runs.contains("2 tries"))
    }

    /// Each run adds a line to `.scenario-run/history.jsonl`, keeping the last 50; the next report shows
    /// each scenario's last runs as marks and the duration trend.
    @Test func historyKeepsTheLastFiftyRunsAndThePageShowsThem() async throws {
        let project = try CLI.project(["Scenarios/a.yml": "scenarios:\n  - scenario: A\n    steps: [succeed]\n"])
        let history = project.appendingPathComponent(".scenario-run/history.jsonl")
        try FileManager.default.createDirectory(
            at: history.deletingLastPathComponent(),
            withIntermediateDirectories: true
        )
        let old = #"{"time":1,"duration":0.5,"passed":1,"failed":0,"skipped":0,"flaky":0,"cancelled":false}"#
        try String(repeating: old + "\n", count: 55).write(to: history, atomically: true, encoding: .utf8)
        let page = project.appendingPathComponent("report.html")
        for _ in 0..<2 {
            let result = try await CLI.run(["--ci", "--html", page.path], directory: project)
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        }
        let lines = try String(contentsOf: history, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 50)
        #expect(lines.last?.contains(#""passedKeys":""#) == true && lines.last?.contains(#""passedKeys":"""#) == false)
        let dom = try await Self.dom(page)
        // 20 marks of earlier runs (the newest of them passed A), then this run's.
        #expect(dom.contains(#"<i class="p"></i><i class="p now"></i>"#), "\(dom.suffix(4000))")
        #expect(dom.contains(#"class="trend""#))
    }
}
