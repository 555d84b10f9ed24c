import Diagnostics
import Foundation
import ScenarioTesting
public import Steps
import Synchronization
import TestSupport
import Testing

/// The app description of docs/your-app.md, as written there (`MyApp` is `ReadmeApp` here), run through
/// `ScenarioTesting` on a scratch project: the page's code compiles and works. `ReadmeSnippetTests` holds
/// the page's block to this text, line for line.
// README: begin app description
public enum ReadmeApp {
    public static let model: EntityModel = {
        do {
            return try EntityModel(entities: [
                EntityDescription(
                    name: "Book",
                    attributes: [.init("bookID", .integer), .init("title", .string)],
                    identificationAttribute: "bookID"
                )
            ])
        } catch {
            fatalError("The entity model is invalid: \(error)")
        }
    }()

    static func configure(_ manager: ObjectManager) throws {
        try manager.router.addRoute(Route(entity: "Book", method: .post, pathPattern: "/books"))
        try manager.router.addRoute(Route(name: "books", method: .get, pathPattern: "/books"))
        let books = EntityMapping(entity: "Book", attributes: ["id": "bookID", "title": "title"])
        manager.addResponseDescriptor(ResponseDescriptor(mapping: books, method: .get, pathPattern: "/books"))
        manager.addRequestDescriptor(RequestDescriptor(entity: "Book", mapping: books.inverse(rootKey: "book")))
        manager.errorMapping = ErrorMapping(keyPaths: ["error"])
    }

    /// Work the app starts on its own (a sync after the network returns): expectations wait for it.
    public static let syncWork = CountingIdlingResource("book sync")

    public static var appUnderTest: AppUnderTest {
        AppUnderTest(
            makeFactory: {
                let factory = TestFactory(model: model, configureManager: configure)
                factory.defineFactory("book", entity: "Book", attributes: ["bookID": 1, "title": "Dune"])
                // After the default set-up makes each scenario's manager: every request signed in.
                factory.addSetUpHook { manager in manager.client.setDefaultHeader("Authorization", to: "Bearer test") }
                return factory
            },
            steps: [expectTitle],
            leakChecks: [readingListIsEmpty],
            idlingResources: [syncWork]
        )
    }

    /// After tear-down the app's own reading list must be empty again.
    static let readingListIsEmpty = LeakCheck("reading list") { _ in
        let count = ReadingList.shared.count
        return count == 0 ? [] : ["\(count) book\(count == 1 ? "" : "s") still on the reading list"]
    }

    static let title = StepArgument<String>.required("title", .string, "The book's title")

    /// `expect title: Dune` — waits until a stored book has that title.
    static let expectTitle = StepDefinition(
        "expect title",
        summary: "Waits for a book with that title",
        forms: [.value(title)],
        example: "expect title: Dune"
    ) { input, _ in
        Step(input.sourceDescription) { context in
            let title = try input[title].resolve(in: context)
            let store = try context.world.manager.store
            let count = try store?.mainContext.count("Book", where: ["title": .string(title)]) ?? 0
            return count > 0 ? .success : .wait("No book titled '\(title)' yet")
        }.givingUpWhenSettled()
    }
}
// README: end app description

extension ReadmeApp {
    /// The app's own state the page's leak check reads (not shown on the page).
    final class ReadingList: Sendable {
        static let shared = ReadingList()
        private let titles = Mutex<[String]>([])
        var count: Int { titles.withLock { $0.count } }
        func add(_ title: String) { titles.withLock { $0.append(title) } }
        func removeAll() { titles.withLock { $0.removeAll() } }
    }
}

extension FullStack {
    @Suite struct ReadmeAppTests {
        @Test func anAppStepNamedLikeABuiltInOneIsAnErrorAtItsSwiftLine() throws {
            let clashLine = #line + 1
            let clash = StepDefinition("Wait", summary: "Clashes with the built-in 'wait'") { _, _ in .succeed("no") }
            let summary = "Clashes with the app's own 'expect title'"
            let twiceLine = #line + 1
            let twice = StepDefinition("expect  title", summary: summary) { _, _ in .succeed("no") }
            let app = AppUnderTest(
                makeFactory: ReadmeApp.appUnderTest.makeFactory,
                steps: [ReadmeApp.expectTitle, clash, twice]
            )
            let error = try #require(throws: DiagnosticList.self) {
                try ScenarioSuite(app: app, settings: RunSettings(), directory: FileManager.default.temporaryDirectory)
            }
            let file = #filePath
            #expect(
                error.diagnostics.map(\.description) == [
                    "\(file):\(clashLine):1: error: The app's step 'Wait' has the name of a built-in step; give it another name.",
                    "\(file):\(twiceLine):1: error: The app has two steps named 'expect  title'; the other is at "
                        + "\(ReadmeApp.expectTitle.definedAt.fileAndLine).",
                ]
            )
        }

        @Test func theReadmesAppRunsItsScenariosAndItsRoutesComeFromItsConfiguration() async throws {
            let project = TemporaryFolder.processScratch.appendingPathComponent("readme-app-\(UUID().uuidString)")
            try FileManager.default.createDirectory(
                at: project.appendingPathComponent("Scenarios"),
                withIntermediateDirectories: true
            )
            try FileManager.default.createDirectory(
                at: project.appendingPathComponent("Fixtures"),
                withIntermediateDirectories: true
            )
            try #"[{"id": 7, "title": "Solaris"}]"#.write(
                to: project.appendingPathComponent("Fixtures/books.json"),
                atomically: true,
                encoding: .utf8
            )
            try "routes:\n  - { path: /books, method: GET, fixture: books.json }\n".write(
                to: project.appendingPathComponent("Fixtures/server.yml"),
                atomically: true,
                encoding: .utf8
            )
            try """
            feature: Books
            scenarios:
              - scenario: Loading the books
                steps:
                  - get objects: { route: books }
                  - expect response: { status: 200 }
                  - expect entities: { entity: Book, count: 1 }
                  - expect title: Solaris
                  - expect request: { path: /books, headers: { Authorization: Bearer test }, count: 1 }
              - scenario: A book from the factory
                steps:
                  - create from factory: { factory: book, properties: { title: Dune }, as: dune }
                  - stub route: { class: Book, method: POST, to: /nowhere }
                  - expect title: Dune
            """.write(to: project.appendingPathComponent("Scenarios/books.yml"), atomically: true, encoding: .utf8)
            let summary = try await ScenarioTesting.run(
                app: ReadmeApp.appUnderTest,
                directory: project,
                environment: [:]
            )
            #expect(summary.passed == 2)
            #expect(summary.failed == 0)

            // A book left on the app's own reading list: its leak check fails every scenario.
            ReadmeApp.ReadingList.shared.add("Solaris")
            defer { ReadmeApp.ReadingList.shared.removeAll() }
            try await withKnownIssue {
                let leaking = try await ScenarioTesting.run(
                    app: ReadmeApp.appUnderTest,
                    directory: project,
                    environment: [:]
                )
                #expect(leaking.failed == 2)
            } matching: { issue in
                issue.comments.contains {
                    $0.rawValue.hasSuffix("at step 'check for leaks': 1 book still on the reading list")
                }
                    && issue.sourceLocation?.fileName == "books.yml"
            }
        }
    }
}
