import Foundation
import ObjectManager
import Testing

struct MappingTestTests {
    static let mapping = EntityMapping(
        entity: "Article",
        attributes: ["title": "title", "author": "author", "tags": "tags", "created_at": "createdAt"],
        dateFormats: [.pattern("MM/dd/yyyy")]
    )

    @Test func rightExpectationsPass() throws {
        var test = MappingTest(
            mapping: Self.mapping,
            sourceObject: try ObjectMapperTests.fixture("article.json"),
            model: try TestModel.model(),
            keyPath: "article"
        )
        test.expect(from: "title", to: "title", value: "RestKit Unit Testing")
        test.expect(from: "author", to: "author")
        test.expect(from: "tags", to: "tags", value: .json(["RestKit", "testing", "tutorials"]))
        test.expect(from: "created_at", to: "createdAt", value: "03/01/2012")
        test.expect(from: "created_at", to: "createdAt") { $0.stringValue == "2012-03-01T00:00:00Z" }

        try test.verify()
    }

    @Test func everyWrongExpectationIsReported() throws {
        var test = MappingTest(
            mapping: Self.mapping,
            sourceObject: try ObjectMapperTests.fixture("article.json"),
            model: try TestModel.model(),
            keyPath: "article"
        )
        test.expect(from: "title", to: "title", value: "Core Data Unit Testing")
        test.expect(from: "author", to: "title")
        test.expect(from: "tags", to: "tags") { _ in false }
        test.expect(from: "author", to: "author")

        let error = #expect(throws: MappingTestError.self) { try test.verify() }

        #expect(
            error?.description == """
                3 mapping expectations not met:
                - Expected mapping 'title' -> 'title' with value 'Core Data Unit Testing', got 'RestKit Unit Testing'.
                - Expected mapping 'author' -> 'title', but the mapping does not map it.
                - Expected mapping 'tags' -> 'tags' with a value passing the test, got ["RestKit","testing","tutorials"].
                """
        )
    }

    @Test func aMissingSourceObjectIsAnError() throws {
        let test = MappingTest(
            mapping: Self.mapping,
            sourceObject: ["other": 1],
            model: try TestModel.model(),
            keyPath: "article"
        )
        #expect(throws: MappingTestError.noSourceObject(keyPath: "article")) { try test.verify() }
    }

    @Test func expectationsFollowRelationships() throws {
        let mapping = EntityMapping(
            entity: "Review",
            attributes: ["id": "reviewID"],
            relationships: [
                RelationshipMapping(
                    fromKeyPath: "restaurant",
                    toRelationship: "restaurant",
                    mapping: EntityMapping(entity: "Restaurant", attributes: ["id": "restaurantID", "name": "name"])
                )
            ]
        )
        var test = MappingTest(
            mapping: mapping,
            sourceObject: ["id": 1, "restaurant": ["id": 5, "name": "Pizza"]],
            model: try TestModel.model()
        )
        test.expect(from: "restaurant.name", to: "restaurant.name", value: "Pizza")
        test.expect(from: "restaurant.id", to: "restaurantID", value: 5)
        test.expect(from: "restaurant.name", to: "restaurant.rating")

        let error = #expect(throws: MappingTestError.self) { try test.verify() }
        #expect(
            error?.description == """
                1 mapping expectation not met:
                - Expected mapping 'restaurant.name' -> 'restaurant.rating', but nothing was mapped.
                """
        )
    }
}
