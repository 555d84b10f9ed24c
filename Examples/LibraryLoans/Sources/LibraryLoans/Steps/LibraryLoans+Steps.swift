public import Steps

/// The app's own steps, registered beside the built-in ones and used the same way in scenario files.
extension LibraryLoans {
    /// The app as scenario-run and `ScenarioTesting` drive it. Its routes are read from
    /// ``configure(_:)`` through the test factory, so they are not listed here.
    public static var appUnderTest: AppUnderTest {
        AppUnderTest(
            makeFactory: { makeTestFactory() },
            steps: steps,
            leakChecks: [loanListIsFresh],
            idlingResources: [LoanList.refreshWork]
        )
    }

    /// After tear-down the loan list is a fresh one again (the tear-down hook replaces it): a list still
    /// showing loans would greet the next scenario.
    static let loanListIsFresh = LeakCheck("loan list") { _ in
        let list = LibraryScreens.loanList
        guard list.isLoaded else { return [] }
        return ["loan list still open with \(list.rows.count) loan\(list.rows.count == 1 ? "" : "s")"]
    }

    /// `open loan list`, `borrow book` and `expect loan list`.
    public static var steps: [StepDefinition] {
        [openLoanList, borrowBook, expectLoanList]
    }

    /// `open loan list` — shows the member's loans (loads them in the background).
    static let openLoanList = StepDefinition("open loan list", summary: "Opens the member's loan list") { _, _ in
        Step("open loan list") { context in
            let list = LibraryScreens.loanList
            try context.world.launch(context) { await list.load() }
            return .success
        }
    }

    static let book = StepArgument<Int>.required("book", .integer, "The book's ID")
    static let member = StepArgument<String>.required("member", .string, "Who borrows it")

    /// `borrow book: {book, member}` — borrows a book (by its ID) for a member from the loan list.
    static let borrowBook = StepDefinition(
        "borrow book",
        summary: "Borrows a book for a member from the loan list",
        forms: [.mapping(book.any, member.any)],
        example: "borrow book: { book: \"${kindred.bookID}\", member: Octavia Butler }"
    ) { input, _ in
        Step(input.sourceDescription) { context in
            let bookID = try input[book].resolve(in: context)
            let member = try input[member].resolve(in: context)
            let list = LibraryScreens.loanList
            try context.world.launch(context) { await list.borrow(bookID: bookID, member: member) }
            return .success
        }
    }

    static let count = StepArgument<Int?>.optional("count", .integer(in: 0...10_000), "How many loans")
    static let overdue = StepArgument<Int?>.optional("overdue", .integer(in: 0...10_000), "How many are overdue")
    static let message = StepArgument<String?>.optional("message", .string, "Text in the list's message")

    /// `expect loan list: {count, overdue, message}` — waits until the loan list shows that many
    /// loans, that many of them overdue, and a message containing that text.
    static let expectLoanList = StepDefinition(
        "expect loan list",
        summary: "Passes when the loan list shows that many loans, overdue ones and that message",
        forms: [.mapping(count.any, overdue.any, message.any)],
        example: "expect loan list: { count: 2, overdue: 1 }"
    ) { input, _ in
        Step(input.sourceDescription) { context in
            let list = LibraryScreens.loanList
            guard list.isLoaded else { return .wait("The loan list shows nothing yet") }
            let shown = list.message.map { " (message '\($0)')" } ?? ""
            if let count = try input[count].resolve(in: context), list.rows.count != count {
                return .wait("The loan list shows \(list.rows.count) loan(s)\(shown), expected \(count)")
            }
            if let overdue = try input[overdue].resolve(in: context), list.overdueCount != overdue {
                return .wait("The loan list shows \(list.overdueCount) overdue loan(s), expected \(overdue)")
            }
            if let expected = try input[message].resolve(in: context) {
                guard let text = list.message, text.contains(expected) else {
                    return .wait("The loan list's message is '\(list.message ?? "")', expected '\(expected)'")
                }
            }
            return .success
        }.givingUpWhenSettled()
    }
}
