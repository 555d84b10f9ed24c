import ExampleApp
import Foundation
import ObjectManager
import Testing

/// The RKKIFSteps route-stubbing table, through router, queue, HTTP, mapping and store against
/// the live stub server.
extension FullStack {
    @Suite struct RouteStubbingTests {
        static let reviewPOST = Route.Key.class(entity: "Review", method: .post)

        @Test func unstubbedRoutePostsToTheRestaurantsReviews() async throws {
            let stack = try await LiveStack.start()
            let review = try stack.newReview(["restaurantID": 12345, "title": "Whatever"])
            let result = try await stack.manager.postObject(review)
            #expect(result.response.status == 201)
            let entry = try #require(stack.server.journal.entries.last)
            #expect(entry.method == "POST")
            #expect(entry.path == "/restaurants/12345/reviews")
            #expect(
                entry.bodyText() == #"{"review":{"body":null,"rating":null,"title":"Whatever"}}"#
                    || entry.bodyText().contains(#""title":"Whatever""#)
            )
            try await stack.stop()
        }

        @Test func stubbedTo201MapsAndStoresTheReview() async throws {
            let stack = try await LiveStack.start()
            try stack.manager.router.replacePathPattern(of: Self.reviewPOST, with: "/review")
            let review = try stack.newReview(["restaurantID": 12345, "title": "Draft"])
            let result = try await stack.manager.postObject(review)
            #expect(result.response.status == 201)
            #expect(review["reviewID"] == .integer(1))
            #expect(review["title"] == .string("Whatever"))
            let saved = try #require(stack.manager.store).fetchSaved("Review", where: ["reviewID": 1])
            #expect(saved.count == 1)
            #expect(saved.first?["title"] == .string("Whatever"))
            #expect(saved.first?["restaurantID"] == .integer(12345))
            #expect(stack.server.journal.entries.map(\.path) == ["/review"])
            try await stack.stop()
        }

        @Test func stubbedTo422MapsTheErrorAndStoresNothing() async throws {
            let stack = try await LiveStack.start()
            try stack.manager.router.replacePathPattern(of: Self.reviewPOST, with: "/422")
            let review = try stack.newReview(["restaurantID": 12345, "title": "Whatever"])
            let error = try await #require(throws: ObjectManagerError.self) {
                try await stack.manager.postObject(review)
            }
            guard case .server(let status, let message, _) = error else { Issue.record("unexpected \(error)"); return }
            #expect(status == 422)
            #expect(message == "Invalid object.")
            #expect(error.description == "Invalid object.")
            #expect(try stack.context.count("Review") == 0)
            #expect(try #require(stack.manager.store).countSaved("Review") == 0)
            try await stack.stop()
        }

        @Test func stubbedTo500HasAnEmptyBody() async throws {
            let stack = try await LiveStack.start()
            try stack.manager.router.replacePathPattern(of: Self.reviewPOST, with: "/500")
            let review = try stack.newReview(["restaurantID": 12345, "title": "Whatever"])
            let error = try await #require(throws: ObjectManagerError.self) {
                try await stack.manager.postObject(review)
            }
            #expect(error.response?.status == 500)
            #expect(error.response?.body.isEmpty == true)
            #expect(error.description == "The server answered 500.")
            #expect(try stack.context.count("Review") == 0)
            try await stack.stop()
        }

        @Test func stubbedTo503ServesTheHTMLPage() async throws {
            let stack = try await LiveStack.start()
            try stack.manager.router.replacePathPattern(of: Self.reviewPOST, with: "/503")
            let review = try stack.newReview(["restaurantID": 12345, "title": "Whatever"])
            let error = try await #require(throws: ObjectManagerError.self) {
                try await stack.manager.postObject(review)
            }
            #expect(error.response?.status == 503)
            #expect(error.response?.bodyText == "<html>Service unavailable.</html>")
            #expect(error.response?.mimeType == "text/html")
            #expect(try stack.context.count("Review") == 0)
            try await stack.stop()
        }

        @Test func stubbingAnUnknownRouteIsAClearError() async throws {
            let stack = try await LiveStack.start()
            #expect(throws: RoutingError.self) {
                try stack.manager.router.replacePathPattern(of: .class(entity: "Review", method: .patch), with: "/x")
            }
            try await stack.stop()
        }

        @Test func namedAndRelationshipRoutesMapIntoTheStore() async throws {
            let stack = try await LiveStack.start()
            let restaurants = try await stack.manager.getObjects(forRouteNamed: "restaurants")
            #expect(restaurants.objects.count == 20)
            #expect(try #require(stack.manager.store).countSaved("Restaurant") == 20)
            // Loading twice upserts by restaurantID: still 20.
            _ = try await stack.manager.getObjects(forRouteNamed: "restaurants", cachePolicy: .reloadIgnoringCacheData)
            #expect(try stack.context.count("Restaurant") == 20)

            let place = try #require(try stack.context.existingObject(entity: "Restaurant", identifiedBy: 1))
            let reviews = try await stack.manager.getObjects(forRelationship: "reviews", of: place)
            #expect(reviews.objects.count == 2)
            #expect(stack.server.journal.entries.last?.path == "/restaurants/1/reviews")
            #expect(try stack.context.related(place, "reviews").count == 2)
            try await stack.stop()
        }
    }
}
