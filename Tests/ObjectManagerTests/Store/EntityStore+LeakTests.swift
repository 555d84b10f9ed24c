import Foundation
import ObjectManager
import Testing

/// What `check for leaks` reads of a store: saved rows per entity and the main context's unsaved changes.
struct EntityStoreLeakTests {
    @Test func savedRowCountsFollowInsertsAndRemoveAll() throws {
        let store = try TestModel.store()
        #expect(try store.savedRowCounts().isEmpty)
        let context = store.mainContext
        try context.insert(entity: "Review", attributes: ["reviewID": 1, "title": "Great"])
        #expect(try store.savedRowCounts().isEmpty, "unsaved objects are not rows")
        try context.save()
        try context.insert(entity: "Review", attributes: ["reviewID": 2, "title": "Meh"])
        try context.save()
        #expect(try store.savedRowCounts().map { "\($0.entity) \($0.count)" } == ["Review 2"])
        try store.removeAll()
        #expect(try store.savedRowCounts().isEmpty)
        try context.insert(entity: "Review", attributes: ["reviewID": 3, "title": "Again"])
        try context.save()
        #expect(
            try store.savedRowCounts().map { "\($0.entity) \($0.count)" } == ["Review 1"],
            "an insert after removeAll is counted"
        )
    }

    @Test func unsavedChangesCountInsertsByEntityAndOtherChanges() throws {
        let store = try TestModel.store()
        let context = store.mainContext
        let saved = try context.insert(entity: "Review", attributes: ["reviewID": 1, "title": "Great"])
        try context.save()
        #expect(context.unsavedChanges.inserted.isEmpty && context.unsavedChanges.updatedOrDeleted == 0)
        try context.insert(entity: "Review", attributes: ["reviewID": 2, "title": "Meh"])
        try context.insert(entity: "Review", attributes: ["reviewID": 3, "title": "Fine"])
        try saved.setValue("Greater", forAttribute: "title")
        let changes = context.unsavedChanges
        #expect(changes.inserted.map { "\($0.entity) \($0.count)" } == ["Review 2"])
        #expect(changes.updatedOrDeleted == 1)
    }

    /// A read of a table the store added no row to answers without SQLite; it must still see every row:
    /// after a save (of that table only), none after `removeAll()`, a save after that (fails when a table
    /// is taken as empty once it has rows). A file store's own rows: `aFileStoreMayHoldRowsFromTheStart`.
    @Test func readsOfTablesWithoutRowsSeeEveryRow() throws {
        let store = try TestModel.store()
        let context = store.mainContext
        func counts() throws -> [Int] {
            [
                try store.countSaved("Review"), try store.fetchSaved("Review").count,
                try store.countSaved("Restaurant"), try store.fetchSaved("Restaurant").count,
                try context.count("Review"), try context.fetch("Review").count,
                try context.count("Review", where: ["title": "Great"]),
            ]
        }
        #expect(try counts() == [0, 0, 0, 0, 0, 0, 0])
        try context.insert(entity: "Review", attributes: ["reviewID": 1, "title": "Great"])
        try context.save()
        #expect(try counts() == [1, 1, 0, 0, 1, 1, 1])
        try store.removeAll()
        #expect(try counts() == [0, 0, 0, 0, 0, 0, 0])
        try context.insert(entity: "Review", attributes: ["reviewID": 2, "title": "Great"])
        try context.save()
        #expect(try counts() == [1, 1, 0, 0, 1, 1, 1])

    }

    @Test func aFileStoreMayHoldRowsFromTheStart() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("rows-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: url) }
        let first = try EntityStore(model: TestModel.model(), location: .file(url))
        try first.mainContext.insert(entity: "Review", attributes: ["reviewID": 1, "title": "Kept"])
        try first.mainContext.save()
        let reopened = try EntityStore(model: TestModel.model(), location: .file(url))
        #expect(try reopened.savedRowCounts().map(\.count) == [1])
        // Rows it did not add itself are read, through every path, and emptied too.
        #expect(try reopened.countSaved("Review") == 1)
        #expect(try reopened.fetchSaved("Review").first?["title"] == "Kept")
        #expect(try reopened.mainContext.fetch("Review").count == 1)
        try reopened.removeAll()
        #expect(try reopened.savedRowCounts().isEmpty)
        #expect(try EntityStore(model: TestModel.model(), location: .file(url)).savedRowCounts().isEmpty)
    }
}
