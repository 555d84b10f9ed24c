import Foundation
import Testing

@testable import ObjectManager

struct ObjectMapperTests {
    static let restaurantMapping = EntityMapping(
        entity: "Restaurant",
        attributes: ["id": "restaurantID", "name": "name"]
    )
    static let reviewMapping = EntityMapping(
        entity: "Review",
        attributes: ["id": "reviewID", "title": "title", "restaurant_id": "restaurantID", "created_at": "createdAt"],
        dateFormats: [.iso8601, .pattern("MM/dd/yyyy")]
    )

    static func fixture(_ name: String) throws -> JSONValue {
        let url = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appending(path: "Fixtures").appending(path: name)
        return try JSONValue(parsing: Data(contentsOf: url))
    }

    @Test func articleFixtureMapsEveryValue() throws {
        let store = try TestModel.store()
        let mapping = EntityMapping(
            entity: "Article",
            attributes: ["title": "title", "author": "author", "tags": "tags", "created_at": "createdAt"],
            dateFormats: [.iso8601, .pattern("MM/dd/yyyy")]
        )
        let json = try #require(try Self.fixture("article.json")[keyPath: "article"])

        let objects = try ObjectMapper().map(json, with: mapping, in: store.mainContext)

        let article = try #require(objects.first)
        #expect(objects.count == 1)
        #expect(article["title"] == "RestKit Unit Testing")
        #expect(article["author"] == "Blake Watters")
        #expect(article["tags"] == .json(["RestKit", "testing", "tutorials"]))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        let expected = try #require(calendar.date(from: DateComponents(year: 2012, month: 3, day: 1)))
        #expect(article["createdAt"] == .date(expected))
        #expect(article["createdAt"].stringValue == "2012-03-01T00:00:00Z")
    }

    @Test func mappingTheSamePayloadTwiceLeavesOneRow() throws {
        let store = try TestModel.store()
        let payload: JSONValue = [
            ["id": 1, "title": "First"], ["id": "1", "title": "Again"], ["id": 2, "title": "Other"],
        ]

        let first = try ObjectMapper().map(payload, with: Self.reviewMapping, in: store.mainContext)
        #expect(first.count == 3)
        #expect(first[0] === first[1])
        #expect(first[0]["title"] == "Again")
        try store.mainContext.save()
        let second = try ObjectMapper().map(payload, with: Self.reviewMapping, in: store.mainContext)
        try store.mainContext.save()

        #expect(second[0] === first[0])
        #expect(try store.countSaved("Review") == 2)
        #expect(try store.countSaved("Review", where: ["reviewID": 1, "title": "Again"]) == 1)
    }

    @Test func nestedToOneObjectConnectsThroughTheForeignKey() throws {
        let store = try TestModel.store()
        let mapping = EntityMapping(
            entity: "Review",
            attributes: ["id": "reviewID", "title": "title"],
            relationships: [
                RelationshipMapping(
                    fromKeyPath: "restaurant",
                    toRelationship: "restaurant",
                    mapping: Self.restaurantMapping
                )
            ]
        )
        let json: JSONValue = ["id": 1, "title": "Tasty", "restaurant": ["id": 12345, "name": "Pizza"]]

        let review = try #require(try ObjectMapper().map(json, with: mapping, in: store.mainContext).first)

        #expect(review["restaurantID"] == .integer(12345))
        #expect(review.value(forKeyPath: "restaurant.name") == "Pizza")
        #expect(try store.mainContext.count("Restaurant") == 1)
    }

    @Test func nestedToManyObjectsPointBackAtTheirParent() throws {
        let store = try TestModel.store()
        let mapping = EntityMapping(
            entity: "Restaurant",
            attributes: ["id": "restaurantID", "name": "name"],
            relationships: [
                RelationshipMapping(fromKeyPath: "reviews", toRelationship: "reviews", mapping: Self.reviewMapping)
            ]
        )
        let json: JSONValue = [
            "id": 7, "name": "Sushi", "reviews": [["id": 1, "title": "A"], ["id": 2, "title": "B"]],
        ]

        let restaurant = try #require(try ObjectMapper().map(json, with: mapping, in: store.mainContext).first)
        try store.mainContext.save()

        let reviews = try store.mainContext.related(restaurant, "reviews")
        #expect(reviews.map { $0["title"] } == ["A", "B"])
        #expect(try store.countSaved("Review", where: ["restaurantID": 7]) == 2)
    }

    @Test func foreignKeyInThePayloadIsJustAnAttribute() throws {
        let store = try TestModel.store()
        try store.mainContext.insert(entity: "Restaurant", attributes: ["restaurantID": 12345, "name": "Pizza"])
        try store.mainContext.save()
        let json: JSONValue = [
            "review": ["id": 3, "title": "Fine", "restaurant_id": "12345", "created_at": "2012-03-01T10:00:00.250Z"]
        ]

        let payload = try #require(json[keyPath: "review"])
        let review = try #require(
            try ObjectMapper().map(payload, with: Self.reviewMapping, in: store.mainContext).first
        )

        #expect(review["restaurantID"] == .integer(12345))
        #expect(review.value(forKeyPath: "restaurant.name") == "Pizza")
        #expect(review["createdAt"] == .date(Date(timeIntervalSince1970: 1_330_596_000.25)))
    }

    @Test func responseMapsOntoThePostedObject() throws {
        let store = try TestModel.store()
        let posted = try store.mainContext.insert(entity: "Review", attributes: ["title": "Posted"])

        let mapped = try ObjectMapper().map(
            ["id": 42, "title": "Posted", "created_at": "03/01/2012"],
            with: Self.reviewMapping,
            in: store.mainContext,
            onto: posted
        )

        #expect(mapped == [posted])
        #expect(posted["reviewID"] == .integer(42))
        #expect(try store.mainContext.count("Review") == 1)

        let detached = try ManagedObject(entity: TestModel.review, attributes: ["title": "Detached"])
        _ = try ObjectMapper().map(["id": 43], with: Self.reviewMapping, in: store.mainContext, onto: detached)
        #expect(detached.context === store.mainContext)
        #expect(detached.isInserted)
        #expect(try store.mainContext.count("Review") == 2)
    }

    @Test func badPayloadsAreReported() throws {
        let store = try TestModel.store()
        let notObject = #expect(throws: MappingError.self) {
            try ObjectMapper().map([1, 2], with: Self.reviewMapping, in: store.mainContext)
        }
        #expect(
            notObject?.description == "Cannot map 1 onto entity 'Review': expected an object or an array of objects."
        )

        let badDate = #expect(throws: MappingError.self) {
            try ObjectMapper().map(["created_at": "yesterday"], with: Self.reviewMapping, in: store.mainContext)
        }
        #expect(
            badDate?.description
                == "Cannot map 'created_at' onto 'Review.createdAt': Cannot read 'yesterday' as a date (formats: ISO 8601, MM/dd/yyyy)."
        )
    }

    @Test func errorMessagesAreFoundByKeyPath() throws {
        let mapping = ErrorMapping()
        #expect(mapping.message(in: ["errors": ["code": 12345, "message": "Invalid object."]]) == "Invalid object.")
        #expect(mapping.message(in: ["error": "An error occurred!!"]) == "An error occurred!!")
        #expect(
            mapping.message(in: ["errors": ["Title is blank", "Body is blank"]]) == "Title is blank, Body is blank"
        )
        #expect(mapping.message(in: ["errors": [["message": "A"], ["message": "B"]]]) == "A, B")
        #expect(mapping.message(in: ["status": "ok"]) == nil)
    }

    @Test func requestMappingNestsUnderTheRootKey() throws {
        let store = try TestModel.store()
        let review = try store.mainContext.insert(
            entity: "Review",
            attributes: ["title": "Great", "restaurantID": 12345, "createdAt": "2012-03-01T00:00:00Z"]
        )

        let body = Self.reviewMapping.inverse(rootKey: "review").body(for: review)

        #expect(
            body == [
                "review": ["id": nil, "title": "Great", "restaurant_id": 12345, "created_at": "2012-03-01T00:00:00Z"]
            ]
        )
        let nested = RequestMapping(attributes: ["title": "review.title"]).body(for: review)
        #expect(nested.text == #"{"review":{"title":"Great"}}"#)
        // Plain keys and key paths together: each where its path says, none lost.
        let mixed = RequestMapping(
            attributes: ["title": "title", "restaurantID": "place.id", "createdAt": "place.created"]
        )
        .body(for: review)
        #expect(mixed.text == #"{"place":{"created":"2012-03-01T00:00:00Z","id":12345},"title":"Great"}"#)
        // An empty key path's value is the whole body (the keys before it replaced).
        #expect(RequestMapping(attributes: ["restaurantID": "id", "title": ""]).body(for: review) == "Great")
        // A key after it is set among the members of that value (none here: a text), the text no longer the body.
        #expect(
            RequestMapping(attributes: ["createdAt": "", "title": "title"]).body(for: review).text
                == #"{"title":"Great"}"#
        )
    }
}
