import Foundation
import Testing

@testable import ObjectManager

struct PersistentStoreTests {
    /// A memory store does not overwrite deleted rows with zeros (SQLite's `secure_delete`, on in Debian's
    /// build): nothing could read them back, and every tear-down deletes. A file store keeps the library's
    /// setting.
    @Test func aMemoryStoreDoesNotZeroDeletedRows() throws {
        let memory = try PersistentStore(model: TestModel.model(), path: nil)
        #expect(try memory.pragma("secure_delete") == ["0"])

        let url = FileManager.default.temporaryDirectory.appendingPathComponent("pragma-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: url) }
        let file = try PersistentStore(model: TestModel.model(), path: url.path)
        let built = try file.pragma("compile_options").contains("SECURE_DELETE")
        #expect(try file.pragma("secure_delete") == [built ? "1" : "0"])
    }

    /// Rows deleted from a memory store are gone and the table takes new ones (the tear-down's path).
    @Test func aMemoryStoreEmptiedTakesRowsAgain() throws {
        let store = try TestModel.store()
        let context = store.mainContext
        for round in 1...3 {
            for id in 1...20 {
                try context.insert(
                    entity: "Restaurant",
                    attributes: ["restaurantID": .integer(id), "name": .string("R\(id)")]
                )
            }
            try context.save()
            #expect(try store.countSaved("Restaurant") == 20, "round \(round)")
            try store.removeAll()
            #expect(try store.countSaved("Restaurant") == 0, "round \(round)")
        }
    }
}
