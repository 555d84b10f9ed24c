import Foundation
import Steps
import Testing

// docs/writing-steps.md's code, compiled: the blocks between the markers are the page's, line for line
// (`ReadmeSnippetTests` holds the page to them). `Library`, `LibraryScreens` and `LoanList` stand in for
// the app the page's code belongs to.

/// The app whose steps the page declares.
enum Library {}

/// The app's screens, as the page's step reaches them.
enum LibraryScreens {
    static let loanList = LoanList()
}

/// The app's loan list: what the page's step and idling resource drive.
final class LoanList: Sendable {
    func borrow(bookID: Int, member: String, days: Int) async {}
    func load() async {}
}

// README: begin borrow book
extension Library {
    static let book = StepArgument<Int>.required("book", .integer, "The book's ID")
    static let member = StepArgument<String>.required("member", .string, "Who borrows it")
    static let days = StepArgument<Int>.optional("days", .integer(in: 1...90), default: 21, "Loan length")

    /// `borrow book: {book, member, days}` — borrows a book from the loan list.
    static let borrowBook = StepDefinition(
        "borrow book",
        summary: "Borrows a book for a member from the loan list",
        forms: [.mapping(book.any, member.any, days.any)],
        example: "borrow book: { book: \"${kindred.bookID}\", member: Octavia Butler }"
    ) { input, _ in
        Step(input.sourceDescription) { context in
            let bookID = try input[book].resolve(in: context)  // an Int, also from "${kindred.bookID}"
            let member = try input[member].resolve(in: context)
            let days = try input[days].resolve(in: context)  // 21 when left out
            let list = LibraryScreens.loanList
            try context.world.launch(context) { await list.borrow(bookID: bookID, member: member, days: days) }
            return .success
        }
    }
}
// README: end borrow book

// README: begin idling resource
extension LoanList {
    /// Raised around the refresh the list starts by itself when the network returns.
    static let refreshWork = CountingIdlingResource("loan list refresh")

    func networkCameBack() {
        Task {
            try await LoanList.refreshWork.whileBusy {
                try await Task.sleep(for: .milliseconds(800))  // the debounce
                await self.load()
            }
        }
    }
}
// README: end idling resource

extension FullStack {
    @Suite struct WritingStepsDocTests {
        @Test func thePagesStepDeclaresItsArguments() {
            #expect(Library.borrowBook.name == "borrow book")
            #expect(Library.days.key == "days")
        }
    }
}
