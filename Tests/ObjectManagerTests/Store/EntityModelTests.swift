import ObjectManager
import Testing

struct EntityModelTests {
    @Test func aValidModelListsItsEntities() throws {
        var builder = EntityModel.Builder()
        builder.add(TestModel.restaurant)
        builder.add(TestModel.review)
        let model = try builder.build()
        #expect(model.entityNames == ["Restaurant", "Review"])
        #expect(model.entity(named: "Review")?.identificationAttribute == "reviewID")
        #expect(model.entity(named: "Nope") == nil)
    }

    @Test func unknownDestinationIsRejected() {
        var review = TestModel.review
        review.relationships = [
            RelationshipDescription(name: "restaurant", destination: "Place", foreignKey: "restaurantID")
        ]
        let error = #expect(throws: ModelError.self) { try EntityModel(entities: [review]) }
        #expect(error?.description == "Relationship 'Review.restaurant' points at unknown entity 'Place'.")
    }

    @Test func foreignKeyMustBeAnAttributeOfTheRightEntity() {
        var restaurant = TestModel.restaurant
        restaurant.relationships = [
            RelationshipDescription(name: "reviews", destination: "Review", isToMany: true, foreignKey: "placeID")
        ]
        let error = #expect(throws: ModelError.self) { try EntityModel(entities: [restaurant, TestModel.review]) }
        #expect(
            error?.description
                == "Relationship 'Restaurant.reviews' uses foreign key 'placeID', which is not an attribute of 'Review'."
        )
    }

    @Test func identificationAttributeMustExist() {
        var review = TestModel.review
        review.relationships = []
        review.identificationAttribute = "id"
        let error = #expect(throws: ModelError.self) { try EntityModel(entities: [review]) }
        #expect(error?.description == "Entity 'Review' is identified by 'id', which is not one of its attributes.")
    }

    @Test func duplicatesAreRejected() {
        #expect(throws: ModelError.duplicateEntity("Article")) {
            try EntityModel(entities: [TestModel.article, TestModel.article])
        }
        var article = TestModel.article
        article.attributes.append(.init("title", .string))
        #expect(throws: ModelError.duplicateAttribute(entity: "Article", attribute: "title")) {
            try EntityModel(entities: [article])
        }
    }
}
