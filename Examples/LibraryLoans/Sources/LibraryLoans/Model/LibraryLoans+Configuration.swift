public import ObjectManager

extension LibraryLoans {
    /// The app's routes, descriptors and error mapping on a new object manager — the one place they
    /// are declared. The app calls it once at launch; the test factory calls it at every set-up, and
    /// scenario-run reads the routes from it (`TestFactory.configuredRoutes()`).
    ///
    /// Routes: class routes Loan POST, PUT and DELETE and Book GET; relationship route `loans` of
    /// Book; named routes `books`, `available books` (with a query) and `loans`.
    public static func configure(_ manager: ObjectManager) throws {
        let router = manager.router
        try router.addRoute(Route(entity: "Loan", method: .post, pathPattern: "/loans"))
        try router.addRoute(Route(entity: "Loan", method: .put, pathPattern: "/loans/:loanID"))
        try router.addRoute(Route(entity: "Loan", method: .delete, pathPattern: "/loans/:loanID"))
        try router.addRoute(Route(entity: "Book", method: .get, pathPattern: "/books/:bookID"))
        try router.addRoute(
            Route(relationship: "loans", ofEntity: "Book", method: .get, pathPattern: "/books/:bookID/loans")
        )
        try router.addRoute(Route(name: "books", method: .get, pathPattern: "/books"))
        // The query is literal text of the pattern: it is sent as written, and response descriptors
        // match the path without it (so `/books` below maps this response too).
        try router.addRoute(Route(name: "available books", method: .get, pathPattern: "/books?available=true"))
        try router.addRoute(Route(name: "loans", method: .get, pathPattern: "/loans"))

        manager.addResponseDescriptor(ResponseDescriptor(mapping: bookMapping, method: .get, pathPattern: "/books"))
        manager.addResponseDescriptor(
            ResponseDescriptor(mapping: bookMapping, method: .get, pathPattern: "/books/:bookID")
        )
        manager.addResponseDescriptor(
            ResponseDescriptor(mapping: loanMapping, method: .get, pathPattern: "/books/:bookID/loans")
        )
        manager.addResponseDescriptor(ResponseDescriptor(mapping: loanMapping, method: .get, pathPattern: "/loans"))
        // A sent loan's answer is mapped back onto it, wherever its route points.
        manager.addResponseDescriptor(ResponseDescriptor(mapping: loanMapping, method: .post))
        manager.addResponseDescriptor(ResponseDescriptor(mapping: loanMapping, method: .put))
        manager.addRequestDescriptor(RequestDescriptor(entity: "Loan", mapping: loanRequestMapping))
        manager.errorMapping = errorMapping
    }
}
