public import ObjectManager

/// A small library-loans client built on the object manager: books with their authors, a member's
/// loans, and one screen (``LoanList``). Its scenarios under `Scenarios/` drive it through
/// scenario-run, as any app that depends on the package would.
public enum LibraryLoans {
    /// Author, Book and Loan.
    ///
    /// A book belongs to an author (`authorID`) and has loans (`bookID` on Loan).
    public static let model: EntityModel = {
        var builder = EntityModel.Builder()
        builder.addEntity(
            "Author",
            attributes: [.init("authorID", .integer), .init("name", .string)],
            identificationAttribute: "authorID",
            relationships: [.init(name: "books", destination: "Book", isToMany: true, foreignKey: "authorID")]
        )
        builder.addEntity(
            "Book",
            attributes: [
                .init("bookID", .integer), .init("title", .string), .init("isbn", .string),
                .init("authorID", .integer), .init("available", .boolean),
            ],
            identificationAttribute: "bookID",
            relationships: [
                .init(name: "author", destination: "Author", foreignKey: "authorID"),
                .init(name: "loans", destination: "Loan", isToMany: true, foreignKey: "bookID"),
            ]
        )
        builder.addEntity(
            "Loan",
            attributes: [
                .init("loanID", .integer), .init("bookID", .integer), .init("member", .string),
                .init("dueDate", .date), .init("returned", .boolean),
            ],
            identificationAttribute: "loanID",
            relationships: [.init(name: "book", destination: "Book", foreignKey: "bookID")]
        )
        do {
            return try builder.build()
        } catch {
            fatalError("The library-loans entity model is invalid: \(error)")
        }
    }()
}
