import Testing

@testable import ObjectManager

/// Mapping JSON onto many-to-many relationships: nested objects upserted then linked, arrays of
/// identification values linked, and every mapped array replacing the object's links.
struct ManyToManyMappingTests {
    static let authorMapping = EntityMapping(entity: "Author", attributes: ["id": "authorID", "name": "name"])
    static let bookMapping = EntityMapping(
        entity: "Book",
        attributes: ["id": "bookID", "title": "title"],
        relationships: [RelationshipMapping(fromKeyPath: "authors", toRelationship: "authors", mapping: authorMapping)]
    )
    static let bookByIDsMapping: EntityMapping = {
        var mapping = EntityMapping(entity: "Book", attributes: ["id": "bookID", "title": "title"])
        mapping.addRelationship(identificationsFromKeyPath: "author_ids", toRelationship: "authors")
        return mapping
    }()

    @Test func nestedObjectsAreUpsertedAndLinked() throws {
        let store = try LibraryModel.store()
        let context = store.mainContext
        try context.insert(entity: "Author", attributes: ["authorID": 7, "name": "Old name"])
        let payload: JSONValue = [
            "id": 1, "title": "Good Omens",
            "authors": [["id": 9, "name": "Bo"], ["id": 7, "name": "Ann"]],
        ]

        let book = try #require(try ObjectMapper().map(payload, with: Self.bookMapping, in: context).first)
        try context.save()

        #expect(try store.countSaved("Author") == 2, "Author 7 updated, not duplicated")
        #expect(book.value(forKeyPath: "authors") == "7, 9")
        #expect(book.value(forKeyPath: "authors.name") == .json(["Ann", "Bo"]))
        #expect(
            try store.savedRowCounts().map { "\($0.entity) \($0.count)" } == ["Book 1", "Author 2", "Book_authors 2"]
        )
    }

    @Test func aMappedArrayReplacesTheLinks() throws {
        let store = try LibraryModel.store()
        let context = store.mainContext
        let mapper = ObjectMapper()
        _ = try mapper.map(
            ["id": 1, "authors": [["id": 7, "name": "Ann"], ["id": 9, "name": "Bo"]]],
            with: Self.bookMapping,
            in: context
        )
        try context.save()
        let book = try #require(try context.existingObject(entity: "Book", identifiedBy: 1))

        _ = try mapper.map(
            ["id": 1, "authors": [["id": 9], ["id": 11, "name": "Cy"]]],
            with: Self.bookMapping,
            in: context
        )
        try context.save()
        #expect(book.value(forKeyPath: "authors") == "9, 11")
        #expect(try store.countSaved("Author") == 3, "an unlinked author stays")

        _ = try mapper.map(["id": 1, "title": "No authors key"], with: Self.bookMapping, in: context)
        _ = try mapper.map(["id": 1, "authors": nil], with: Self.bookMapping, in: context)
        #expect(book.value(forKeyPath: "authors") == "9, 11", "absent or null: unchanged")

        _ = try mapper.map(["id": 1, "authors": []], with: Self.bookMapping, in: context)
        try context.save()
        #expect(book.value(forKeyPath: "authors.count") == 0)
    }

    @Test func mappingTheSamePayloadAgainChangesNoLink() throws {
        let store = try LibraryModel.store()
        let context = store.mainContext
        let payload: JSONValue = ["id": 1, "title": "T", "authors": [["id": 7, "name": "Ann"]]]
        _ = try ObjectMapper().map(payload, with: Self.bookMapping, in: context)
        try context.save()
        _ = try ObjectMapper().map(payload, with: Self.bookMapping, in: context)
        #expect(!context.hasChanges)
    }

    @Test func identificationArraysLinkWithoutCreatingObjects() throws {
        let store = try LibraryModel.store()
        let context = store.mainContext
        try context.insert(entity: "Author", attributes: ["authorID": 7, "name": "Ann"])
        let payload: JSONValue = [["id": 1, "author_ids": [7, "12", nil]], ["id": 2, "author_ids": 7]]

        let books = try ObjectMapper().map(payload, with: Self.bookByIDsMapping, in: context)
        try context.save()

        #expect(try store.countSaved("Author") == 1, "Author 12 is not created")
        #expect(books.map { $0.value(forKeyPath: "authors") } == ["7, 12", "7"])
        #expect(try context.related(books[0], "authors").map { $0["name"] } == ["Ann"])
        let ann = try #require(try context.existingObject(entity: "Author", identifiedBy: 7))
        #expect(ann.value(forKeyPath: "books") == "1, 2")

        _ = try ObjectMapper().map(["id": 1, "author_ids": [12]], with: Self.bookByIDsMapping, in: context)
        try context.save()
        #expect(ann.value(forKeyPath: "books") == "2", "replaced")
    }

    @Test func theInverseSideMapsToo() throws {
        let store = try LibraryModel.store()
        let context = store.mainContext
        var mapping = Self.authorMapping
        mapping.addRelationship(identificationsFromKeyPath: "book_ids", toRelationship: "books")
        let author = try #require(
            try ObjectMapper().map(["id": 7, "name": "Ann", "book_ids": [3, 1]], with: mapping, in: context).first
        )
        try context.save()
        #expect(author.value(forKeyPath: "books") == "1, 3")
        #expect(try store.savedRowCounts().last.map { "\($0.entity) \($0.count)" } == "Book_authors 2")
    }

    @Test func identificationsMustBeValuesForAManyToManyRelationship() throws {
        let store = try LibraryModel.store()
        let context = store.mainContext
        let nested = #expect(throws: MappingError.self) {
            try ObjectMapper().map(["id": 1, "author_ids": [["id": 7]]], with: Self.bookByIDsMapping, in: context)
        }
        #expect(
            nested?.description
                == "Cannot map 'author_ids' onto 'Author.authorID': Cannot convert {\"id\":7} to integer."
        )

        var reviews = ObjectMapperTests.restaurantMapping
        reviews.addRelationship(identificationsFromKeyPath: "review_ids", toRelationship: "reviews")
        #expect(throws: MappingError.store(.notManyToMany(entity: "Restaurant", relationship: "reviews"))) {
            try ObjectMapper().map(["id": 1, "review_ids": [1]], with: reviews, in: TestModel.store().mainContext)
        }
    }

    @Test func nestedObjectsNeedTheirIdentificationToBeLinked() throws {
        let store = try LibraryModel.store()
        #expect(throws: MappingError.store(.missingValue(entity: "Author", attribute: "authorID"))) {
            try ObjectMapper().map(
                ["id": 1, "authors": [["name": "Anonymous"]]],
                with: Self.bookMapping,
                in: store.mainContext
            )
        }
    }
}
