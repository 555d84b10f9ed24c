import Foundation
import ObjectManager
import Testing

/// Many-to-many relationships through the real SQLite store: the model's join tables, links saved, read
/// from both sides, replaced, deleted with their objects, and read through key paths.
struct ManyToManyTests {
    // MARK: Model

    @Test func theModelNamesAJoinTablePerOwningRelationship() throws {
        let model = try LibraryModel.model()
        #expect(model.joinTables.map(\.name) == ["Book_authors", "Person_follows"])
        let table = try #require(model.joinTables.first)
        #expect(table.entity == "Book" && table.relationship == "authors" && table.destination == "Author")
        let authors = RelationshipDescription.manyToMany(name: "authors", destination: "Author")
        #expect(authors.isManyToMany && authors.isToMany && authors.inverse == nil)
        #expect(model.entity(named: "Author")?.relationship(named: "books")?.inverse == "authors")
    }

    @Test func bothEndsNeedAnIdentificationAttribute() {
        var author = LibraryModel.author
        author.identificationAttribute = nil
        author.relationships = []
        let error = #expect(throws: ModelError.self) { try EntityModel(entities: [LibraryModel.book, author]) }
        #expect(
            error
                == .relationshipNeedsIdentification(entity: "Book", relationship: "authors", identifiedEntity: "Author")
        )
    }

    @Test func anInverseNamesTheOwnerOfAJoinTable() {
        var author = LibraryModel.author
        author.relationships = [.manyToMany(name: "books", destination: "Book", inverse: "writers")]
        #expect(throws: ModelError.invalidInverse(entity: "Author", relationship: "books", inverse: "Book.writers")) {
            try EntityModel(entities: [LibraryModel.book, author])
        }
        // Naming each other: neither owns the join table.
        var book = LibraryModel.book
        book.relationships = [.manyToMany(name: "authors", destination: "Author", inverse: "books")]
        let error = #expect(throws: ModelError.self) { try EntityModel(entities: [book, LibraryModel.author]) }
        #expect(
            error?.description
                == "Relationship 'Book.authors' names 'Author.books' as its inverse, which is not a many-to-many "
                + "relationship to 'Book' declared without an inverse (the side that owns the join table)."
        )
    }

    @Test func aJoinTableMayNotTakeAnEntitysName() {
        let clash = EntityDescription(name: "book_AUTHORS", attributes: [.init("x", .integer)])
        #expect(
            throws: ModelError.joinTableNameTaken(entity: "Book", relationship: "authors", table: "Book_authors")
        ) {
            try EntityModel(entities: [LibraryModel.book, LibraryModel.author, clash])
        }
    }

    // MARK: Saving and reading links

    @Test func linksAreSavedInOneTransactionAndReadFromBothSides() throws {
        let (store, book, ann, bo) = try LibraryModel.storeWithBookAndAuthors()
        let context = store.mainContext
        try context.addLink(from: book, to: bo, through: "authors")
        try context.addLink(from: ann, to: book, through: "books")  // the inverse writes the same table

        #expect(try context.linkedIdentifications(of: book, through: "authors") == [7, 9])
        #expect(context.hasChanges)
        #expect(context.unsavedChanges.links == 2)
        #expect(try store.savedRowCounts().map(\.entity) == ["Book", "Author"], "unsaved links are no rows")
        #expect(try store.newContext().linkedIdentifications(of: book, through: "authors").isEmpty)

        try context.save()
        #expect(!context.hasChanges)
        #expect(
            try store.savedRowCounts().map { "\($0.entity) \($0.count)" } == ["Book 1", "Author 2", "Book_authors 2"]
        )
        let fresh = store.newContext()
        let freshBook = try #require(try fresh.existingObject(entity: "Book", identifiedBy: 1))
        #expect(try fresh.linkedIdentifications(of: freshBook, through: "authors") == [7, 9])
        #expect(try fresh.related(freshBook, "authors").map { $0["name"] } == ["Ann", "Bo"])
        #expect(try context.related(bo, "books") == [book])
    }

    /// `removeAll()` deletes from the tables rows were added to since it last emptied them: a join
    /// table's rows are among them, and a table added to after it ran is emptied by the next.
    @Test func removeAllEmptiesEveryTableRowsWereAddedTo() throws {
        let (store, book, _, bo) = try LibraryModel.storeWithBookAndAuthors()
        let context = store.mainContext
        try context.addLink(from: book, to: bo, through: "authors")
        try context.save()
        #expect(try store.savedRowCounts().map(\.entity) == ["Book", "Author", "Book_authors"])
        try store.removeAll()
        #expect(try store.savedRowCounts().isEmpty)
        #expect(try store.newContext().fetch("Book").isEmpty && store.newContext().fetch("Author").isEmpty)
        // The same book and author again: no link of theirs is left from before.
        let fresh = store.newContext()
        let again = try fresh.insert(entity: "Book", attributes: ["bookID": 1, "title": "Good Omens"])
        try fresh.insert(entity: "Author", attributes: ["authorID": 9, "name": "Bo"])
        try fresh.save()
        #expect(try fresh.linkedIdentifications(of: again, through: "authors").isEmpty)
        try store.removeAll()
        try fresh.insert(entity: "Author", attributes: ["authorID": 3, "name": "Cy"])
        try fresh.save()
        try store.removeAll()
        #expect(try store.savedRowCounts().isEmpty, "a table added to after the last removeAll")
    }

    @Test func aPairIsLinkedOnceAndUnsavedChangesThatCancelOutLeaveNone() throws {
        let (store, book, ann, bo) = try LibraryModel.storeWithBookAndAuthors()
        let context = store.mainContext
        try context.addLink(from: book, to: ann, through: "authors")
        try context.addLink(from: book, to: ann, through: "authors")
        #expect(context.unsavedChanges.links == 1)
        try context.addLink(from: book, to: bo, through: "authors")
        try context.removeLink(from: book, to: bo, through: "authors")
        #expect(context.unsavedChanges.links == 1, "removing an unsaved link forgets it")
        try context.save()

        // Another context links the same pair again: still one row.
        let other = store.newContext()
        let otherBook = try #require(try other.existingObject(entity: "Book", identifiedBy: 1))
        let otherAnn = try #require(try other.existingObject(entity: "Author", identifiedBy: 7))
        try context.removeLink(from: book, to: ann, through: "authors")
        try other.addLink(from: otherBook, to: otherAnn, through: "authors")
        #expect(!other.hasChanges, "the link is saved already")
        try context.addLink(from: book, to: ann, through: "authors")
        #expect(!context.hasChanges, "removing and adding a saved link leaves nothing to save")
        #expect(try store.savedRowCounts().last?.count == 1)
    }

    @Test func settingLinksReplacesTheSet() throws {
        let (store, book, ann, bo) = try LibraryModel.storeWithBookAndAuthors()
        let context = store.mainContext
        try context.setLinks(from: book, through: "authors", to: [ann, bo])
        try context.save()
        let cy = try context.insert(entity: "Author", attributes: ["authorID": 11, "name": "Cy"])

        try context.setLinks(from: book, through: "authors", to: [bo, cy, bo])
        #expect(try context.linkedIdentifications(of: book, through: "authors") == [9, 11])
        #expect(context.unsavedChanges.links == 2, "7 removed, 11 added, 9 kept")
        try context.save()
        #expect(try store.newContext().linkedIdentifications(of: book, through: "authors") == [9, 11])
        #expect(try context.related(ann, "books").isEmpty)

        try context.setLinks(from: book, through: "authors", toIdentifications: [])
        try context.save()
        #expect(try store.savedRowCounts().map(\.entity) == ["Book", "Author"])
    }

    @Test func identificationValuesLinkWhetherOrNotTheObjectIsStored() throws {
        let (store, book, _, _) = try LibraryModel.storeWithBookAndAuthors()
        let context = store.mainContext
        try context.setLinks(from: book, through: "authors", toIdentifications: ["9", 12, 7])
        try context.save()
        #expect(try context.linkedIdentifications(of: book, through: "authors") == [7, 9, 12])
        #expect(try context.related(book, "authors").map { $0["authorID"] } == [7, 9], "no Author 12 yet")
        #expect(book.value(forKeyPath: "authors") == "7, 9, 12")

        try context.insert(entity: "Author", attributes: ["authorID": 12, "name": "Di"])
        #expect(try context.related(book, "authors").map { $0["name"] } == ["Ann", "Bo", "Di"], "the link shows")
        #expect(
            throws: StoreError.invalidValue(
                entity: "Author",
                attribute: "authorID",
                .cannotConvert(value: "'x'", to: .integer)
            )
        ) {
            try context.setLinks(from: book, through: "authors", toIdentifications: ["x"])
        }
    }

    @Test func aRelationshipOfAnEntityToItself() throws {
        let store = try LibraryModel.store()
        let context = store.mainContext
        let ann = try context.insert(entity: "Person", attributes: ["handle": "ann"])
        let bo = try context.insert(entity: "Person", attributes: ["handle": "bo"])
        let cy = try context.insert(entity: "Person", attributes: ["handle": "cy"])
        try context.setLinks(from: ann, through: "follows", to: [cy, bo])
        try context.addLink(from: cy, to: ann, through: "followers")  // ann follows cy: already so
        try context.addLink(from: bo, to: cy, through: "follows")
        try context.save()
        #expect(ann.value(forKeyPath: "follows") == "bo, cy")
        #expect(cy.value(forKeyPath: "followers") == "ann, bo")
        #expect(ann.value(forKeyPath: "followers") == "")

        context.delete(cy)
        try context.save()
        #expect(ann.value(forKeyPath: "follows") == "bo")
        #expect(try store.savedRowCounts().map { "\($0.entity) \($0.count)" } == ["Person 2", "Person_follows 1"])
    }

    // MARK: Deleting

    @Test func deletingAnObjectDeletesItsLinksOnBothSides() throws {
        let (store, book, ann, bo) = try LibraryModel.storeWithBookAndAuthors()
        let context = store.mainContext
        let sequel = try context.insert(entity: "Book", attributes: ["bookID": 2, "title": "Sequel"])
        try context.setLinks(from: book, through: "authors", to: [ann, bo])
        try context.setLinks(from: sequel, through: "authors", to: [ann])
        try context.save()

        context.delete(ann)
        try context.save()
        #expect(try context.linkedIdentifications(of: book, through: "authors") == [9])
        #expect(try context.linkedIdentifications(of: sequel, through: "authors").isEmpty)

        context.delete(book)
        try context.save()
        #expect(try store.savedRowCounts().map { "\($0.entity) \($0.count)" } == ["Book 1", "Author 1"])
    }

    @Test func deletingDropsTheObjectsUnsavedLinkChanges() throws {
        let (store, book, ann, _) = try LibraryModel.storeWithBookAndAuthors()
        let context = store.mainContext
        let draft = try context.insert(entity: "Book", attributes: ["bookID": 3])
        try context.addLink(from: draft, to: ann, through: "authors")
        try context.addLink(from: book, to: ann, through: "authors")
        context.delete(draft)
        #expect(context.unsavedChanges.links == 1)
        try context.save()
        #expect(try store.savedRowCounts().last.map { "\($0.entity) \($0.count)" } == "Book_authors 1")
    }

    @Test func deletingEverythingAndRemoveAllEmptyTheJoinTables() throws {
        let (store, book, ann, bo) = try LibraryModel.storeWithBookAndAuthors()
        let context = store.mainContext
        try context.setLinks(from: book, through: "authors", to: [ann, bo])
        try context.setLinks(from: ann, through: "books", toIdentifications: [1, 40])  // Book 40 is not stored
        try context.save()
        try context.deleteAllEntities()
        try context.save()
        #expect(try store.savedRowCounts().isEmpty, "no join row left for the leak check")

        let (second, secondBook, secondAnn, _) = try LibraryModel.storeWithBookAndAuthors()
        try second.mainContext.addLink(from: secondBook, to: secondAnn, through: "authors")
        try second.mainContext.save()
        try second.removeAll()
        #expect(try second.savedRowCounts().isEmpty)
    }

    @Test func rollbackAndResetForgetLinkChanges() throws {
        let (store, book, ann, _) = try LibraryModel.storeWithBookAndAuthors()
        let context = store.mainContext
        try context.addLink(from: book, to: ann, through: "authors")
        context.rollback()
        #expect(!context.hasChanges)
        #expect(try context.linkedIdentifications(of: book, through: "authors").isEmpty)
        try context.addLink(from: book, to: ann, through: "authors")
        context.reset()
        #expect(!context.hasChanges)
    }

    // MARK: Key paths and errors

    @Test func keyPathsReadTheLinks() throws {
        let (store, book, ann, bo) = try LibraryModel.storeWithBookAndAuthors()
        let context = store.mainContext
        #expect(book.value(forKeyPath: "authors") == "")
        #expect(book.value(forKeyPath: "authors.count") == 0)
        try context.setLinks(from: book, through: "authors", to: [bo, ann])
        #expect(book.value(forKeyPath: "authors") == "7, 9", "unsaved links are read too, in ascending order")
        #expect(book.value(forKeyPath: "authors.count") == 2)
        #expect(book.value(forKeyPath: "authors.name") == .json(["Ann", "Bo"]))
        #expect(ann.value(forKeyPath: "books") == "1")
        #expect(ann.value(forKeyPath: "books.title") == .json(["Good Omens"]))
        #expect(book.value(forKeyPath: "editors") == nil)
    }

    @Test func countAfterAToManyRelationshipCountsItsObjects() throws {
        let store = try TestModel.store()
        let context = store.mainContext
        let place = try context.insert(entity: "Restaurant", attributes: ["restaurantID": 1])
        try context.insert(entity: "Review", attributes: ["reviewID": 1, "restaurantID": 1])
        try context.insert(entity: "Review", attributes: ["reviewID": 2, "restaurantID": 1])
        #expect(place.value(forKeyPath: "reviews.count") == 2)
    }

    @Test func linksNeedAManyToManyRelationshipAndIdentifiedObjectsOfItsDestination() throws {
        let (store, book, ann, _) = try LibraryModel.storeWithBookAndAuthors()
        let context = store.mainContext
        #expect(
            throws: StoreError.wrongDestination(
                entity: "Book",
                relationship: "authors",
                destination: "Author",
                found: "Book"
            )
        ) {
            try context.addLink(from: book, to: book, through: "authors")
        }
        #expect(
            throws: StoreError.unknownRelationship(entity: "Book", relationship: "author", suggestions: ["authors"])
        ) {
            try context.addLink(from: book, to: ann, through: "author")
        }
        let anonymous = try context.insert(entity: "Author", attributes: ["name": "Anonymous"])
        #expect(throws: StoreError.missingValue(entity: "Author", attribute: "authorID")) {
            try context.addLink(from: book, to: anonymous, through: "authors")
        }
        let reviews = try TestModel.store()
        let place = try reviews.mainContext.insert(entity: "Restaurant", attributes: ["restaurantID": 1])
        let review = try reviews.mainContext.insert(entity: "Review", attributes: ["reviewID": 1])
        let error = #expect(throws: StoreError.self) {
            try reviews.mainContext.addLink(from: place, to: review, through: "reviews")
        }
        #expect(
            error?.description == "Relationship 'Restaurant.reviews' is not many-to-many; set its foreign key instead."
        )
    }

    // MARK: Files

    @Test func aFileStoreKeepsLinksAndGainsJoinTablesItLacked() throws {
        let directory = try TestModel.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appending(path: "library.sqlite")
        var unlinked = LibraryModel.book
        unlinked.relationships = []
        var lonely = LibraryModel.author
        lonely.relationships = []
        let old = try EntityStore(model: EntityModel(entities: [unlinked, lonely]), location: .file(url))
        try old.mainContext.insert(entity: "Book", attributes: ["bookID": 1])
        try old.mainContext.save()

        let store = try EntityStore(model: LibraryModel.model(), location: .file(url))
        let book = try #require(try store.mainContext.existingObject(entity: "Book", identifiedBy: 1))
        try store.mainContext.setLinks(from: book, through: "authors", toIdentifications: [7])
        try store.mainContext.save()

        let reopened = try EntityStore(model: LibraryModel.model(), location: .file(url))
        let again = try #require(try reopened.mainContext.existingObject(entity: "Book", identifiedBy: 1))
        #expect(try reopened.mainContext.linkedIdentifications(of: again, through: "authors") == [7])
    }
}
