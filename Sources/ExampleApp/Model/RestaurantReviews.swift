public import Foundation
public import ObjectManager

/// A small restaurant-reviews client built on the object manager, written the way a real app
/// would be: an entity model, routes, mappings, factories, and two screens (`ReviewComposer`,
/// `RestaurantList`). The demo scenarios drive it.
public enum RestaurantReviews {
    /// Restaurant, Review and User.
    public static let model: EntityModel = {
        do {
            return try EntityModel(entities: [
                EntityDescription(
                    name: "Restaurant",
                    attributes: [.init("restaurantID", .integer), .init("name", .string), .init("cuisine", .string)],
                    identificationAttribute: "restaurantID",
                    relationships: [
                        .init(name: "reviews", destination: "Review", isToMany: true, foreignKey: "restaurantID")
                    ]
                ),
                EntityDescription(
                    name: "Review",
                    attributes: [
                        .init("reviewID", .integer), .init("title", .string), .init("body", .string),
                        .init("rating", .integer), .init("restaurantID", .integer),
                    ],
                    identificationAttribute: "reviewID",
                    relationships: [.init(name: "restaurant", destination: "Restaurant", foreignKey: "restaurantID")]
                ),
                EntityDescription(
                    name: "User",
                    attributes: [.init("userID", .integer), .init("name", .string)],
                    identificationAttribute: "userID"
                ),
            ])
        } catch {
            fatalError("The example app's entity model is invalid: \(error)")
        }
    }()

    /// `[{"id": 1, "name": "…", "cuisine": "…"}]` at the root.
    public static let restaurantMapping = EntityMapping(
        entity: "Restaurant",
        attributes: ["id": "restaurantID", "name": "name", "cuisine": "cuisine"]
    )

    /// `{"id": 1, "title": "…", "body": "…", "rating": 5}`.
    public static let reviewMapping = EntityMapping(
        entity: "Review",
        attributes: ["id": "reviewID", "title": "title", "body": "body", "rating": "rating"]
    )

    /// Reviews are sent as `{"review": {"title": …, "body": …, "rating": …}}`.
    public static let reviewRequestMapping = RequestMapping(
        attributes: ["title": "title", "body": "body", "rating": "rating"],
        rootKey: "review"
    )

    /// The app's routes:
    /// class routes Review POST, PUT and DELETE, class route Restaurant GET, named routes `restaurants`
    /// and `restaurant` (one by its ID, `parameters: { restaurantID: 12 }`), relationship route `reviews`
    /// of Restaurant.
    public static let routes = RouteSet([
        Route(entity: "Review", method: .post, pathPattern: "/restaurants/:restaurantID/reviews"),
        Route(entity: "Review", method: .put, pathPattern: "/reviews/:reviewID"),
        Route(entity: "Review", method: .delete, pathPattern: "/reviews/:reviewID"),
        Route(entity: "Restaurant", method: .get, pathPattern: "/restaurants/:restaurantID"),
        Route(name: "restaurants", method: .get, pathPattern: "/restaurants"),
        Route(name: "restaurant", method: .get, pathPattern: "/restaurants/:restaurantID"),
        Route(
            relationship: "reviews",
            ofEntity: "Restaurant",
            method: .get,
            pathPattern: "/restaurants/:restaurantID/reviews"
        ),
    ])

    /// The token the app signs its requests with; the API refuses a review posted without one.
    public static let token = "Bearer demo-token"

    /// Routes, descriptors, error mapping and the app's token on a new object manager.
    public static func configure(_ manager: ObjectManager) throws {
        try manager.router.addRoutes(routes)
        manager.client.setDefaultHeader("Authorization", to: token)
        for descriptor in responseDescriptors { manager.addResponseDescriptor(descriptor) }
        manager.addRequestDescriptor(RequestDescriptor(entity: "Review", mapping: reviewRequestMapping))
        manager.errorMapping = ErrorMapping(keyPaths: ["errors.message", "error"])
    }

    /// How the app's responses map, made once: every set-up gives them to its new manager.
    static let responseDescriptors = [
        ResponseDescriptor(mapping: restaurantMapping, method: .get, pathPattern: "/restaurants"),
        ResponseDescriptor(mapping: restaurantMapping, method: .get, pathPattern: "/restaurants/:restaurantID"),
        ResponseDescriptor(mapping: reviewMapping, method: .get, pathPattern: "/restaurants/:restaurantID/reviews"),
        // A posted review's response is mapped back onto it, wherever its route points.
        ResponseDescriptor(mapping: reviewMapping, method: .post),
        ResponseDescriptor(mapping: reviewMapping, method: .put),
    ]

    /// The factories `restaurant`, `review` and `user`, the reset of the app's screens, and a set-up
    /// without drafts (``Drafts`` are not cleared at tear-down: see the leak check in `appUnderTest`).
    public static func makeTestFactory(makeClient: (@Sendable (URL) -> HTTPClient)? = nil) -> TestFactory {
        let factory = TestFactory(model: model, makeClient: makeClient, configureManager: configure)
        factory.defineFactory(
            "restaurant",
            entity: "Restaurant",
            attributes: ["restaurantID": 12345, "name": "Chez Swift", "cuisine": "French"]
        )
        factory.defineFactory(
            "review",
            entity: "Review",
            attributes: ["title": "Whatever", "body": "Review ${sequence}", "rating": 4, "restaurantID": 12345]
        )
        factory.defineFactory("user", entity: "User", attributes: ["userID": 1, "name": "Blake Watters"])
        factory.addSetUpHook { _ in
            Screens.reset()
            Drafts.removeAll()
        }
        factory.addTearDownHook { _ in Screens.reset() }
        return factory
    }
}
