public import ObjectManager

extension LibraryLoans {
    /// The factories `author`, `book` and `loan`, and the reset of the app's screens around every
    /// scenario.
    public static func makeTestFactory() -> TestFactory {
        let factory = TestFactory(model: model, configureManager: { manager in try configure(manager) })
        factory.defineFactory("author", entity: "Author", attributes: ["authorID": 1, "name": "Frank Herbert"])
        factory.defineFactory(
            "book",
            entity: "Book",
            attributes: ["bookID": 7, "title": "Dune", "isbn": "978-0441172719", "authorID": 1, "available": true]
        )
        factory.defineFactory(
            "loan",
            entity: "Loan",
            attributes: [
                "loanID": 1, "bookID": 7, "member": "Member ${sequence}", "dueDate": "2099-06-01", "returned": false,
            ]
        )
        factory.addSetUpHook { _ in LibraryScreens.reset() }
        factory.addTearDownHook { _ in LibraryScreens.reset() }
        return factory
    }
}
