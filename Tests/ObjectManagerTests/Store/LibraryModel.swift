import ObjectManager

/// A model with many-to-many relationships: books and their authors (owned by Book, read back by Author),
/// and people following people (a relationship of an entity to itself, with text identification).
enum LibraryModel {
    static let book = EntityDescription(
        name: "Book",
        attributes: [.init("bookID", .integer), .init("title", .string)],
        identificationAttribute: "bookID",
        relationships: [.manyToMany(name: "authors", destination: "Author")]
    )

    static let author = EntityDescription(
        name: "Author",
        attributes: [.init("authorID", .integer), .init("name", .string)],
        identificationAttribute: "authorID",
        relationships: [.manyToMany(name: "books", destination: "Book", inverse: "authors")]
    )

    static let person = EntityDescription(
        name: "Person",
        attributes: [.init("handle", .string)],
        identificationAttribute: "handle",
        relationships: [
            .manyToMany(name: "follows", destination: "Person"),
            .manyToMany(name: "followers", destination: "Person", inverse: "follows"),
        ]
    )

    static func model() throws -> EntityModel {
        try EntityModel(entities: [book, author, person])
    }

    static func store() throws -> EntityStore {
        try EntityStore(model: model())
    }

    /// A store with Book 1 and Authors 7 and 9, saved and unlinked.
    static func storeWithBookAndAuthors() throws -> (
        EntityStore, book: ManagedObject, ann: ManagedObject, bo: ManagedObject
    ) {
        let store = try store()
        let context = store.mainContext
        let book = try context.insert(entity: "Book", attributes: ["bookID": 1, "title": "Good Omens"])
        let ann = try context.insert(entity: "Author", attributes: ["authorID": 7, "name": "Ann"])
        let bo = try context.insert(entity: "Author", attributes: ["authorID": 9, "name": "Bo"])
        try context.save()
        return (store, book, ann, bo)
    }
}
