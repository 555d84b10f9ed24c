public import ObjectManager

extension LibraryLoans {
    /// `{"id": 1, "name": "Frank Herbert"}`.
    public static let authorMapping = EntityMapping(
        entity: "Author",
        attributes: ["id": "authorID", "name": "name"]
    )

    /// `{"id": 7, "title": "Dune", "isbn": "…", "available": true, "author": {"id": 1, "name": "…"}}`: the
    /// nested author is mapped onto Author (upserted by its ID) and connected through `author`.
    public static let bookMapping = EntityMapping(
        entity: "Book",
        attributes: ["id": "bookID", "title": "title", "isbn": "isbn", "available": "available"],
        relationships: [RelationshipMapping(fromKeyPath: "author", toRelationship: "author", mapping: authorMapping)]
    )

    /// `{"id": 101, "book_id": 7, "member": "Ada Lovelace", "due_date": "2099-06-01T00:00:00Z", "returned": false}`.
    public static let loanMapping = EntityMapping(
        entity: "Loan",
        attributes: [
            "id": "loanID", "book_id": "bookID", "member": "member", "due_date": "dueDate", "returned": "returned",
        ],
        dateFormats: [.iso8601]
    )

    /// Loans are sent as `{"loan": {"book_id": 7, "member": "…", "returned": false}}`; the server sets
    /// the due date.
    public static let loanRequestMapping = RequestMapping(
        attributes: ["bookID": "book_id", "member": "member", "returned": "returned"],
        rootKey: "loan"
    )

    /// The server's errors read `{"error": {"code": "on_loan", "message": "This book is already on loan."}}`.
    public static let errorMapping = ErrorMapping(keyPaths: ["error.message", "errors"])
}
