import Foundation
import ObjectManager
import TestSupport
import Testing

struct EntityStoreTests {
    @Test func unsavedInsertIsVisibleToTheContextButNotToTheStoreUntilSaved() throws {
        let store = try TestModel.store()
        let context = store.mainContext
        try context.insert(entity: "Review", attributes: ["reviewID": 1, "title": "Great"])

        #expect(try context.fetch("Review").count == 1)
        #expect(try store.fetchSaved("Review").isEmpty)
        #expect(try store.countSaved("Review") == 0)
        #expect(context.hasChanges)

        try context.save()

        #expect(!context.hasChanges)
        let rows = try store.fetchSaved("Review")
        #expect(rows.count == 1)
        #expect(rows.first?["title"] == .string("Great"))
        #expect(rows.first?["reviewID"] == .integer(1))
        #expect(try store.countSaved("Review", where: ["title": "Great"]) == 1)
    }

    /// The INSERT of an entity is prepared once and kept: each insert binds every column again, so a
    /// null after a value is null, in one save and in the next.
    @Test func aKeptInsertLeavesNothingOfTheLastObjectInTheNext() throws {
        let store = try TestModel.store()
        let context = store.mainContext
        try context.insert(entity: "Review", attributes: ["reviewID": 1, "title": "First ✓", "stars": 5])
        try context.insert(entity: "Review", attributes: ["reviewID": 2])
        try context.save()
        try context.insert(entity: "Review", attributes: ["reviewID": 3])
        try context.save()
        let saved = try store.fetchSaved("Review")
        #expect(saved.map { $0["reviewID"] } == [.integer(1), .integer(2), .integer(3)])
        #expect(saved.map { $0["title"] } == [.string("First ✓"), .null, .null])
        #expect(saved.map { $0["stars"] } == [.integer(5), .null, .null])
        #expect(try store.countSaved("Review", where: ["title": .null]) == 2)
    }

    /// Every kind of value goes in by position and comes back the same, through an insert, an update and a
    /// condition on each column (the store binds values itself, not through GRDB's arguments: DECISIONS 171).
    /// A save's inserts of one entity go in a few rows a statement, each row with the rowid it would have
    /// had inserted alone (one more than the largest, after a delete of the last row too): every object is
    /// its own row — fetched back, it is the same instance, with its own values — in order, across
    /// statements, and an insert after them follows on.
    @Test func insertsSavedTogetherKeepTheirRowsAndTheirOrder() throws {
        let store = try TestModel.store()
        let context = store.mainContext
        for id in 1...3 { try context.insert(entity: "Review", attributes: ["reviewID": .integer(id)]) }
        try context.save()
        context.delete(try #require(try context.fetch("Review", where: ["reviewID": 3]).first))
        try context.save()
        var inserted: [ManagedObject] = []
        for id in 100..<170 {
            inserted.append(
                try context.insert(
                    entity: "Review",
                    attributes: ["reviewID": .integer(id), "title": .string("T\(id)"), "stars": .integer(id % 5)]
                )
            )
        }
        try context.insert(entity: "Restaurant", attributes: ["restaurantID": 1, "name": "Between"])
        try context.insert(entity: "Review", attributes: ["reviewID": 170, "title": "After another entity"])
        try context.save()
        let saved = try store.fetchSaved("Review")
        #expect(saved.map { $0["reviewID"] } == ([1, 2] + Array(100...170)).map { AttributeValue.integer($0) })
        #expect(saved.dropFirst(2).prefix(70).map { $0["title"] } == (100..<170).map { .string("T\($0)") })
        for (offset, object) in inserted.enumerated() where offset % 7 == 0 || offset == 69 {
            let id = 100 + offset
            #expect(try context.fetch("Review", where: ["reviewID": .integer(id)]) == [object], "\(id)")
            #expect(object["stars"] == .integer(id % 5))
        }
        try context.insert(entity: "Review", attributes: ["reviewID": 171])
        try context.save()
        #expect(try store.fetchSaved("Review").last?["reviewID"] == 171)
    }

    /// Two objects with one identification in one save: the save fails as SQLite says, and keeps nothing.
    @Test func aConflictAmongInsertsSavedTogetherSavesNothing() throws {
        let store = try TestModel.store()
        let context = store.mainContext
        for id in [1, 2, 1] { try context.insert(entity: "Review", attributes: ["reviewID": .integer(id)]) }
        #expect {
            try context.save()
        } throws: { error in
            "\(error)".contains("UNIQUE constraint failed: Review.reviewID")
        }
        #expect(try store.countSaved("Review") == 0)
    }

    @Test func everyKindOfValueRoundTripsThroughInsertUpdateAndConditions() throws {
        let store = try TestModel.store()
        let context = store.mainContext
        let created = Date(timeIntervalSince1970: 1_700_000_000.125)  // exact in binary: kept to the millisecond
        let values: [String: AttributeValue] = [
            "reviewID": .integer(Int(Int32.max) + 7), "title": "Ünïcode \"quoted\" 'single' x — ✓",
            "stars": .integer(-3), "restaurantID": .null, "createdAt": .date(created), "isPublished": .boolean(true),
        ]
        try context.insert(entity: "Review", attributes: values)
        try context.insert(entity: "Article", attributes: ["title": "T", "tags": .json(["a", 1, ["b": nil]])])
        try context.insert(entity: "Restaurant", attributes: ["restaurantID": 1, "rating": .double(-0.25)])
        try context.save()

        let saved = try #require(try store.fetchSaved("Review").first)
        for (name, value) in values {
            #expect(saved[name] == value, "\(name)")
            #expect(try store.countSaved("Review", where: [name: value]) == 1, "a condition on \(name)")
        }
        #expect(try store.fetchSaved("Article").first?["tags"] == .json(["a", 1, ["b": nil]]))
        #expect(try store.countSaved("Restaurant", where: ["rating": .double(-0.25)]) == 1)

        let review = try #require(try context.fetch("Review").first)
        review["title"] = "Second"
        review["restaurantID"] = 1
        try context.save()
        #expect(try store.countSaved("Review", where: ["title": "Second", "restaurantID": 1, "stars": -3]) == 1)
        #expect(try store.countSaved("Review", where: ["title": "Second", "restaurantID": .null]) == 0)
        #expect(try store.fetchSaved("Review", where: ["isPublished": true]).first?["title"] == "Second")
    }

    /// An app may describe an entity itself, its attributes in another order and some left out: its objects
    /// are saved by attribute name, and read back through the app's own description.
    @Test func anObjectOfTheAppsOwnDescriptionIsSavedByAttributeName() throws {
        let store = try TestModel.store()
        let context = store.mainContext
        let own = EntityDescription(
            name: "Review",
            attributes: [.init("title", .string), .init("reviewID", .integer)],
            identificationAttribute: "reviewID"
        )
        try context.insert(ManagedObject(entity: own, attributes: ["reviewID": 9, "title": "Mine"]))
        try context.save()
        let saved = try #require(try store.fetchSaved("Review").first)
        #expect(saved["reviewID"] == 9)
        #expect(saved["title"] == "Mine")
        #expect(saved["stars"] == .null)
        #expect(try store.countSaved("Review", where: ["title": "Mine", "reviewID": 9]) == 1)
    }

    @Test func unsavedUpdatesAndDeletesShowInFetchOnly() throws {
        let store = try TestModel.store()
        let context = store.mainContext
        let review = try context.insert(entity: "Review", attributes: ["reviewID": 1, "title": "Old"])
        try context.save()

        review["title"] = "New"
        #expect(try context.fetch("Review", where: ["title": "New"]) == [review])
        #expect(try context.fetch("Review") == [review], "its row read, not added again as changed")
        #expect(try context.fetch("Review", where: ["title": "Old"]).isEmpty)
        #expect(try store.countSaved("Review", where: ["title": "Old"]) == 1)

        try context.save()
        #expect(try store.countSaved("Review", where: ["title": "New"]) == 1)

        context.delete(review)
        #expect(review.isDeleted)
        #expect(try context.count("Review") == 0)
        #expect(try store.countSaved("Review") == 1)
        try context.save()
        #expect(try store.countSaved("Review") == 0)
    }

    /// A count is the store's own while nothing of the entity is unsaved, and the fetch's otherwise: each
    /// kind of unsaved change of the entity counts, one of another entity does not hide the saved rows.
    @Test func aCountIsTheFetchsWhateverIsUnsaved() throws {
        let store = try TestModel.store()
        let context = store.mainContext
        for id in 1...3 { try context.insert(entity: "Review", attributes: ["reviewID": .integer(id), "title": "A"]) }
        try context.save()
        func agree(_ note: Comment) throws {
            for conditions: [String: AttributeValue] in [[:], ["title": "A"], ["title": "B"]] {
                let fetched = try context.fetch("Review", where: conditions).count
                #expect(try context.count("Review", where: conditions) == fetched, "\(note) \(conditions)")
            }
        }
        try agree("saved")
        #expect(try context.count("Review", where: ["title": "A"]) == 3)
        try context.insert(entity: "Restaurant", attributes: ["restaurantID": 1, "name": "Elsewhere"])
        try agree("another entity's insert")
        try context.insert(entity: "Review", attributes: ["reviewID": 4, "title": "B"])
        try agree("an insert")
        #expect(try context.count("Review") == 4)
        try context.save()
        let first = try #require(try context.fetch("Review", where: ["reviewID": 1]).first)
        first["title"] = "B"
        try agree("an update")
        #expect(try context.count("Review", where: ["title": "B"]) == 2)
        try context.save()
        context.delete(first)
        try agree("a delete")
        #expect(try context.count("Review") == 3)
        try context.save()
        try agree("saved again")
        #expect(try context.count("Review") == 3)
    }

    @Test func rollbackForgetsUnsavedChanges() throws {
        let store = try TestModel.store()
        let context = store.mainContext
        let kept = try context.insert(entity: "Review", attributes: ["reviewID": 1, "title": "Kept"])
        try context.save()
        try context.insert(entity: "Review", attributes: ["reviewID": 2])
        kept["title"] = "Changed"

        context.rollback()

        #expect(!context.hasChanges)
        #expect(try context.fetch("Review") == [kept])
        #expect(kept["title"] == "Kept")
    }

    @Test func deleteAllOfOneEntityLeavesTheOthers() throws {
        let store = try TestModel.store()
        let context = store.mainContext
        try context.insert(entity: "Restaurant", attributes: ["restaurantID": 1])
        try context.insert(entity: "Review", attributes: ["reviewID": 1])
        try context.insert(entity: "Review", attributes: ["reviewID": 2])
        try context.save()

        try context.deleteAll("Review")
        try context.save()

        #expect(try store.countSaved("Review") == 0)
        #expect(try store.countSaved("Restaurant") == 1)
    }

    @Test func deleteAllEntitiesEmptiesTheStoreIncludingUnsavedInserts() throws {
        let store = try TestModel.store()
        let context = store.mainContext
        try context.insert(entity: "Restaurant", attributes: ["restaurantID": 1])
        try context.insert(entity: "Review", attributes: ["reviewID": 1])
        try context.save()
        try context.insert(entity: "Article", attributes: ["title": "Unsaved"])

        try context.deleteAllEntities()
        try context.save()

        for entity in ["Restaurant", "Review", "Article"] {
            #expect(try store.countSaved(entity) == 0)
            #expect(try context.count(entity) == 0)
        }
    }

    @Test func removeAllEmptiesEveryTableResetsTheContextAndStartsRowIDsAgain() throws {
        let store = try TestModel.store()
        let context = store.mainContext
        let saved = try context.insert(entity: "Restaurant", attributes: ["restaurantID": 1, "name": "Old"])
        try context.insert(entity: "Review", attributes: ["reviewID": 1])
        try context.save()
        try context.insert(entity: "Article", attributes: ["title": "Unsaved"])

        try store.removeAll()

        for entity in ["Restaurant", "Review", "Article"] {
            #expect(try store.countSaved(entity) == 0)
            #expect(try context.count(entity) == 0)
        }
        #expect(!context.hasChanges)
        #expect(saved.context == nil, "objects from before belong to no context any more")
        saved["name"] = "Changed"
        #expect(!context.hasChanges, "changing an object from before marks nothing for saving")

        try context.insert(entity: "Restaurant", attributes: ["restaurantID": 1, "name": "New"])
        try context.save()
        #expect(try store.fetchSaved("Restaurant").map { $0["name"] } == [.string("New")])
    }

    @Test func theSameRowIsAlwaysTheSameInstance() throws {
        let store = try TestModel.store()
        let context = store.mainContext
        let inserted = try context.insert(entity: "Review", attributes: ["reviewID": 7])
        try context.save()

        let first = try context.fetch("Review")
        let second = try context.fetch("Review", where: ["reviewID": "7"])
        #expect(first.count == 1)
        #expect(first.first === inserted)
        #expect(second.first === inserted)
        #expect(try context.existingObject(entity: "Review", identifiedBy: 7) === inserted)
        #expect(try context.existingObject(entity: "Review", identifiedBy: 8) == nil)

        let other = store.newContext()
        let elsewhere = try other.fetch("Review")
        #expect(elsewhere.count == 1)
        #expect(elsewhere.first !== inserted)
        #expect(try other.fetch("Review").first === elsewhere.first)
    }

    @Test func relationshipsFollowForeignKeys() throws {
        let store = try TestModel.store()
        let context = store.mainContext
        let restaurant = try context.insert(entity: "Restaurant", attributes: ["restaurantID": 12345, "name": "Pizza"])
        let review = try context.insert(entity: "Review", attributes: ["reviewID": 1, "restaurantID": 12345])
        try context.insert(entity: "Review", attributes: ["reviewID": 2, "restaurantID": 99])

        #expect(try context.related(review, "restaurant") == [restaurant])
        #expect(try context.related(restaurant, "reviews") == [review])
        #expect(review.value(forKeyPath: "restaurant.name") == "Pizza")
        #expect(review.value(forKeyPath: "nothing") == nil)
    }

    @Test func valuesAreConvertedToTheAttributeTypes() throws {
        let store = try TestModel.store()
        let review = try store.mainContext.insert(
            entity: "Review",
            attributes: ["reviewID": "12", "stars": 4.0, "isPublished": "true", "createdAt": "2012-03-01T10:00:00Z"]
        )
        try store.mainContext.save()

        let row = try #require(try store.fetchSaved("Review").first)
        #expect(row["reviewID"] == .integer(12))
        #expect(row["stars"] == .integer(4))
        #expect(row["isPublished"] == .boolean(true))
        #expect(row["createdAt"] == .date(Date(timeIntervalSince1970: 1_330_596_000)))
        #expect(review["createdAt"].stringValue == "2012-03-01T10:00:00Z")

        #expect(throws: StoreError.self) { try review.setValue("many", forAttribute: "stars") }
        #expect(review["stars"] == .integer(4))
    }

    @Test func unknownNamesAreReportedWithSuggestions() throws {
        let store = try TestModel.store()
        let context = store.mainContext

        let entityError = #expect(throws: StoreError.self) { try context.insert(entity: "Reveiw") }
        #expect(entityError?.description == "Unknown entity 'Reveiw'. Did you mean 'Review'?")

        let attributeError = #expect(throws: StoreError.self) {
            try context.insert(entity: "Review", attributes: ["titel": "x"])
        }
        #expect(attributeError?.description == "Entity 'Review' has no attribute 'titel'. Did you mean 'title'?")

        let valueError = #expect(throws: StoreError.self) {
            try context.insert(entity: "Review", attributes: ["stars": "many"])
        }
        #expect(valueError?.description == "Invalid value for 'Review.stars': Cannot convert 'many' to integer.")
    }

    @Test func duplicateIdentificationFailsTheWholeSave() throws {
        let store = try TestModel.store()
        let context = store.mainContext
        try context.insert(entity: "Review", attributes: ["reviewID": 1])
        try context.save()
        let other = store.newContext()
        try other.insert(entity: "Restaurant", attributes: ["restaurantID": 6])
        try other.insert(entity: "Review", attributes: ["reviewID": 1])

        #expect(throws: StoreError.self) { try other.save() }
        #expect(try store.countSaved("Restaurant") == 0)
        #expect(other.hasChanges)
    }

    @Test func fileStoreKeepsRowsAndBacksUpToAReadableFile() throws {
        let directory = try TestModel.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appending(path: "reviews.sqlite")
        do {
            let store = try EntityStore(model: TestModel.model(), location: .file(url))
            try store.mainContext.insert(entity: "Review", attributes: ["reviewID": 1, "title": "Saved"])
            try store.mainContext.save()
            try store.backup(to: directory.appending(path: "backup.sqlite"))
        }

        let reopened = try EntityStore(model: TestModel.model(), location: .file(url))
        #expect(try reopened.fetchSaved("Review").first?["title"] == "Saved")

        let backupURL = directory.appending(path: "backup.sqlite")
        let header = try Data(contentsOf: backupURL).prefix(15)
        #expect(String(decoding: header, as: UTF8.self) == "SQLite format 3")
        let backup = try EntityStore(model: TestModel.model(), location: .file(backupURL))
        #expect(try backup.fetchSaved("Review", where: ["reviewID": 1]).first?["title"] == "Saved")
    }

    @Test(
        .enabled(if: ExternalTool.available("sqlite3"), "sqlite3 is not installed: this test reads the store with it")
    )
    func backupIsReadableWithTheSQLiteShell() throws {
        let directory = try TestModel.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try TestModel.store()
        try store.mainContext.insert(
            entity: "Review",
            attributes: ["reviewID": 1, "title": "Great", "isPublished": true, "createdAt": "2012-03-01T00:00:00Z"]
        )
        try store.mainContext.save()
        let url = directory.appending(path: "backup.sqlite")
        try store.backup(to: url)

        let process = Process()
        let output = Pipe()
        process.executableURL = URL(filePath: ExternalTool.path("sqlite3") ?? "sqlite3")
        process.arguments = [url.path, "select reviewID, title, isPublished, createdAt from review"]
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()

        #expect(process.terminationStatus == 0)
        #expect(text == "1|Great|1|2012-03-01T00:00:00.000Z\n")
    }

    @Test func defaultStoreIsReplaceableAndResettable() throws {
        let store = try TestModel.store()
        let previous = EntityStore.defaultStore
        defer { EntityStore.defaultStore = previous }
        EntityStore.defaultStore = store
        #expect(EntityStore.defaultStore === store)
        EntityStore.defaultStore = nil
        #expect(EntityStore.defaultStore == nil)
    }
}
