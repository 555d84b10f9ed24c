public import Scenarios
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
    static let openLoanList = StepDefinition(
        name: "open loan list",
        summary: "Opens the member's loan list"
    ) { arguments, _ in
        guard arguments.isEmpty else {
            throw StepArgumentError("Step 'open loan list' takes no arguments.", at: arguments.location)
        }
        return Step("open loan list") { context in
            let list = LibraryScreens.loanList
            try context.world.launch(context) { await list.load() }
            return .success
        }
    }

    /// `borrow book: {book, member}` — borrows a book (by its ID) for a member from the loan list.
    static let borrowBook = StepDefinition(
        name: "borrow book",
        summary: "Borrows a book for a member from the loan list",
        usage: ["{book, member}"]
    ) { arguments, _ in
        _ = try arguments.oneOf([.mapping(required: ["book", "member"])])
        let book = try arguments.string("book")
        let member = try arguments.string("member")
        return Step("borrow book \(book) for '\(member)'") { context in
            let text = try context.interpolate(book)
            guard let bookID = Int(text) else { return .failure("Book '\(text)' is not a book ID.") }
            let member = try context.interpolate(member)
            let list = LibraryScreens.loanList
            try context.world.launch(context) { await list.borrow(bookID: bookID, member: member) }
            return .success
        }
    }

    /// `expect loan list: {count, overdue, message}` — waits until the loan list shows that many
    /// loans, that many of them overdue, and a message containing that text.
    static let expectLoanList = StepDefinition(
        name: "expect loan list",
        summary: "Passes when the loan list shows that many loans, overdue ones and that message",
        usage: ["{count, overdue, message}"]
    ) { arguments, _ in
        _ = try arguments.oneOf([.mapping(required: [], optional: ["count", "overdue", "message"])])
        let count = try arguments.optionalInt("count")
        let overdue = try arguments.optionalInt("overdue")
        let message = try arguments.optionalString("message")
        for (key, value) in [("count", count), ("overdue", overdue)] {
            if let value, value < 0, let node = arguments[key] {
                throw StepArgumentError("'\(key)' is a number of loans, not \(value).", at: node.location)
            }
        }
        var parts: [String] = []
        if let count { parts.append("count \(count)") }
        if let overdue { parts.append("overdue \(overdue)") }
        if let message { parts.append("message '\(message)'") }
        return Step("expect loan list " + parts.joined(separator: ", ")) { context in
            let list = LibraryScreens.loanList
            guard list.isLoaded else {
                return .wait("The loan list shows nothing yet")
            }
            let shown = list.message.map { " (message '\($0)')" } ?? ""
            if let count, list.rows.count != count {
                return .wait(
                    "The loan list shows \(list.rows.count) loan(s)\(shown), expected \(count)"
                )
            }
            if let overdue, list.overdueCount != overdue {
                return .wait(
                    "The loan list shows \(list.overdueCount) overdue loan(s), expected \(overdue)"
                )
            }
            if let message {
                let expected = try context.interpolate(message)
                guard let text = list.message, text.contains(expected) else {
                    return .wait(
                        "The loan list's message is '\(list.message ?? "")', expected '\(expected)'"
                    )
                }
            }
            return .success
        }.givingUpWhenSettled()
    }
}
