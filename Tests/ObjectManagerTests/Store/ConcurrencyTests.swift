import Foundation
import ObjectManager
import Testing

struct ConcurrencyTests {
    @Test func concurrentInsertsFetchesAndSavesKeepEveryRow() async throws {
        let store = try TestModel.store()
        let context = store.mainContext
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for index in 0..<25 {
                        let review = try context.insert(
                            entity: "Review",
                            attributes: ["reviewID": .integer(worker * 100 + index)]
                        )
                        review["title"] = .string("Review \(index)")
                        _ = try context.fetch("Review", where: ["title": "Review 0"])
                        if index % 5 == 0 { try context.save() }
                    }
                }
            }
            try await group.waitForAll()
        }
        try context.save()

        #expect(try store.countSaved("Review") == 200)
        #expect(try context.count("Review", where: ["title": "Review 0"]) == 8)
        #expect(!context.hasChanges)
    }
}
