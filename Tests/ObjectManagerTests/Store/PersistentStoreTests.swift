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

    /// Every text of an insert comes back as written —
    /// small and large, empty, not ASCII, beside numbers and nulls — in one save of many rows and in the next
    /// save, which binds the same statements again.
    @Test func textsOfAManyRowInsertComeBackAsWritten() throws {
        let store = try TestModel.store()
        let context = store.mainContext
        let names = [
            "R", "", "Café Ünïcödé 日本 🙂", String(repeating: "long name ", count: 40), "fifteen bytes!!",
            "sixteen bytes!!!", "a\u{0}b",
        ]
        for round in 0..<2 {
            for (offset, name) in names.enumerated() {
                var attributes: [String: AttributeValue] = ["restaurantID": .integer(round * 100 + offset)]
                attributes["name"] = .string(name + (round == 0 ? "" : " again"))
                if offset.isMultiple(of: 2) { attributes["rating"] = .double(Double(offset) / 2) }
                try context.insert(entity: "Restaurant", attributes: attributes)
            }
            try context.save()
        }
        let saved = try store.fetchSaved("Restaurant")
        let byID = Dictionary(uniqueKeysWithValues: saved.map { ($0["restaurantID"], $0) })
        for round in 0..<2 {
            for (offset, name) in names.enumerated() {
                let row = try #require(byID[.integer(round * 100 + offset)], "row \(round * 100 + offset)")
                #expect(row["name"] == .string(name + (round == 0 ? "" : " again")))
                #expect((row["rating"] ?? .null) == (offset.isMultiple(of: 2) ? .double(Double(offset) / 2) : .null))
            }
        }
        #expect(saved.count == names.count * 2)
    }
}
