import Foundation
import ObjectManager

/// The restaurant-reviews model the store and mapping tests share.
enum TestModel {
    static let restaurant = EntityDescription(
        name: "Restaurant",
        attributes: [.init("restaurantID", .integer), .init("name", .string), .init("rating", .double)],
        identificationAttribute: "restaurantID",
        relationships: [
            RelationshipDescription(name: "reviews", destination: "Review", isToMany: true, foreignKey: "restaurantID")
        ]
    )

    static let review = EntityDescription(
        name: "Review",
        attributes: [
            .init("reviewID", .integer), .init("title", .string), .init("stars", .integer),
            .init("restaurantID", .integer), .init("createdAt", .date), .init("isPublished", .boolean),
        ],
        identificationAttribute: "reviewID",
        relationships: [
            RelationshipDescription(name: "restaurant", destination: "Restaurant", foreignKey: "restaurantID")
        ]
    )

    static let article = EntityDescription(
        name: "Article",
        attributes: [
            .init("title", .string), .init("author", .string), .init("tags", .json), .init("createdAt", .date),
        ]
    )

    static func model() throws -> EntityModel {
        try EntityModel(entities: [restaurant, review, article])
    }

    static func store() throws -> EntityStore {
        try EntityStore(model: model())
    }

    /// A fresh temporary directory for file stores.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appending(path: "store-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
