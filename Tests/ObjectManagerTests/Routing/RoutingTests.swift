import Foundation
import Testing

@testable import ObjectManager

struct PathPatternTests {
    @Test func interpolatesAttributesAndKeyPaths() throws {
        let pattern = PathPattern("/restaurants/:restaurant.restaurantID/reviews/:reviewID")
        #expect(pattern.parameterNames == ["restaurant.restaurantID", "reviewID"])
        let values = ["restaurant.restaurantID": "12345", "reviewID": "7"]
        #expect(try pattern.interpolate { values[$0] } == "/restaurants/12345/reviews/7")
    }

    @Test func percentEncodesValues() throws {
        let pattern = PathPattern("/articles/:category/:id")
        let values = ["category": "news & views/2012", "id": "ü 1"]
        #expect(try pattern.interpolate { values[$0] } == "/articles/news%20%26%20views%2F2012/%C3%BC%201")
    }

    @Test func missingValueNamesPatternAndParameter() {
        let pattern = PathPattern("/restaurants/:restaurantID/reviews")
        #expect(
            throws: RoutingError.missingValue(pattern: "/restaurants/:restaurantID/reviews", parameter: "restaurantID")
        ) {
            try pattern.interpolate { _ in nil }
        }
        #expect(
            RoutingError.missingValue(pattern: "/r/:id", parameter: "id").description
                == "No value for ':id' in /r/:id."
        )
    }

    @Test func matchesConcretePaths() {
        let pattern = PathPattern("/articles/:category/:id")
        #expect(pattern.match("/articles/news/12") == ["category": "news", "id": "12"])
        #expect(PathPattern("/files/:name-v2").match("/files/report-v2") == ["name": "report"])
        #expect(pattern.match("/articles/news") == nil)
        #expect(PathPattern("/review").match("/review") == [:])
        #expect(PathPattern("/review").match("/reviews") == nil)
        // A path shorter than a literal (in bytes) never matches it, ASCII or not.
        #expect(PathPattern("/restaurants").match("/review") == nil)
        #expect(PathPattern("/restaurants/:id").match("/rest") == nil)
        #expect(PathPattern("/r/:id").match("/é") == nil)
        #expect(PathPattern("/rest:id").match("/rest") == nil)
    }

    /// A literal is matched as characters however it is compared: a combining mark after it, or a line feed
    /// after its carriage return, makes another character, and no match.
    @Test func aLiteralEndsOnACharacterBoundary() {
        #expect(PathPattern("/caf:rest").match(segments: ["cafe\u{301}"]) == ["rest": "e\u{301}"])
        #expect(PathPattern("/cafe:rest").match(segments: ["cafe\u{301}x"]) == nil)
        #expect(PathPattern("/caf:rest").match(segments: ["café"]) == ["rest": "é"])
        #expect(PathPattern("/a\r:rest").match(segments: ["a\r\nb"]) == nil)
        #expect(PathPattern("/a\r:rest").match(segments: ["a\rb"]) == ["rest": "b"])
        #expect(PathPattern("/é/:id").match("/é/7") == ["id": "7"])
        #expect(PathPattern("/e/:id").match("/e\u{301}/7") == nil)
    }

    /// A pattern's parts are made once per text and kept, up to a bound: the patterns past it are made each
    /// time, and every one fills and matches alike.
    @Test func patternsPastTheKeptOnesAreMadeAllTheSame() throws {
        for index in 0..<(PathPattern.mostKept + 50) {
            for _ in 0..<2 {
                let pattern = PathPattern("/kept-\(index)/:id/x")
                #expect(pattern.parameterNames == ["id"])
                #expect(try pattern.interpolate { _ in "7" } == "/kept-\(index)/7/x")
                #expect(pattern.match("/kept-\(index)/8/x") == ["id": "8"])
            }
        }
    }

    /// Two texts Swift holds equal (é written as one scalar, and as e and a combining accent) are two
    /// patterns: each path keeps its own bytes.
    @Test func canonicallyEqualTextsAreMadeEachForItself() throws {
        let composed = PathPattern("/caf\u{E9}/:id")
        let decomposed = PathPattern("/cafe\u{301}/:id")
        #expect(Array(try composed.interpolate { _ in "1" }.utf8) == Array("/caf\u{E9}/1".utf8))
        #expect(Array(try decomposed.interpolate { _ in "1" }.utf8) == Array("/cafe\u{301}/1".utf8))
    }

    /// Segment matching (the stub server's) uses the segments made with the pattern: a value may hold a
    /// slash, a placeholder may share its segment with a literal, and a pattern made again from the same
    /// text matches the same.
    @Test func segmentsMatchOneByOneWithTheSegmentsMadeOnce() {
        for _ in 0..<2 {
            let pattern = PathPattern("/articles/:category/:id-v2")
            #expect(
                pattern.match(segments: ["articles", "news/views", "7-v2"]) == ["category": "news/views", "id": "7"]
            )
            #expect(pattern.match(segments: ["articles", "news"]) == nil)
            #expect(pattern.match(segments: ["articles", "news", "7"]) == nil)
            #expect(PathPattern("/").match(segments: []) == [:])
        }
    }

    @Test func aColonNotFollowedByANameIsLiteral() throws {
        #expect(try PathPattern("/time/12:30").interpolate { _ in nil } == "/time/12:30")
    }
}

struct RouteSetTests {
    static let reviewPOST = Route.Key.class(entity: "Review", method: .post)

    func routes() throws -> RouteSet {
        var set = RouteSet()
        try set.add(Route(entity: "Review", method: .post, pathPattern: "/restaurants/:restaurantID/reviews"))
        try set.add(
            Route(
                relationship: "reviews",
                ofEntity: "Restaurant",
                method: .get,
                pathPattern: "/restaurants/:restaurantID/reviews"
            )
        )
        try set.add(Route(name: "restaurants", method: .get, pathPattern: "/restaurants"))
        return set
    }

    @Test func looksUpEachKindOfRoute() throws {
        let set = try routes()
        #expect(set.route(forEntity: "Review", method: .post)?.pathPattern == "/restaurants/:restaurantID/reviews")
        #expect(set.route(forEntity: "Review", method: .get) == nil)
        #expect(set.route(forRelationship: "reviews", ofEntity: "Restaurant", method: .get) != nil)
        #expect(set.route(named: "restaurants")?.method == .get)
    }

    @Test func rejectsDuplicates() throws {
        var set = try routes()
        #expect(throws: RoutingError.duplicateRoute(Self.reviewPOST)) {
            try set.add(Route(entity: "Review", method: .post, pathPattern: "/x"))
        }
        // The first is kept, once.
        #expect(set.route(forEntity: "Review", method: .post)?.pathPattern == "/restaurants/:restaurantID/reviews")
        #expect(set.routes.filter { $0.key == Self.reviewPOST }.count == 1)
    }

    /// An app's routes added as a set at set-up: into an empty set they are its routes, in order, as if
    /// added one by one — a re-pointed route of the set added comes as it is now, with no original to
    /// restore; into a set with routes, a key it has is a duplicate, after the routes before it.
    @Test func addsAWholeSetAsItsRoutesOneByOne() throws {
        var app = try routes()
        try app.replacePathPattern(of: Self.reviewPOST, with: "/422")
        var empty = RouteSet()
        try empty.add(contentsOf: app)
        var oneByOne = RouteSet()
        for route in app.routes { try oneByOne.add(route) }
        #expect(empty == oneByOne)
        #expect(empty.routes.map(\.key) == app.routes.map(\.key))
        #expect(empty.route(forEntity: "Review", method: .post)?.pathPattern == "/422")
        #expect(empty.stubbedRoutes.isEmpty)
        // Changing one set leaves the other as it was.
        try empty.replacePathPattern(of: Self.reviewPOST, with: "/500")
        #expect(app.route(forEntity: "Review", method: .post)?.pathPattern == "/422")

        var some = RouteSet()
        try some.add(Route(name: "first", method: .get, pathPattern: "/first"))
        var other = RouteSet()
        try other.add(Route(name: "second", method: .get, pathPattern: "/second"))
        try other.add(Route(name: "first", method: .get, pathPattern: "/again"))
        try other.add(Route(name: "third", method: .get, pathPattern: "/third"))
        #expect(throws: RoutingError.duplicateRoute(.named("first"))) { try some.add(contentsOf: other) }
        #expect(some.routes.map(\.pathPattern) == ["/first", "/second"])

        let router = Router(baseURL: URL(string: "http://127.0.0.1:8080/")!)
        try router.addRoutes(app)
        #expect(router.routes.routes == app.routes)
        #expect(throws: RoutingError.duplicateRoute(Self.reviewPOST)) { try router.addRoutes(app) }
    }

    @Test func replacesAPathPatternAndRemembersTheOriginal() throws {
        var set = try routes()
        try set.replacePathPattern(of: Self.reviewPOST, with: "/422")
        #expect(set.route(forEntity: "Review", method: .post)?.pathPattern == "/422")
        #expect(set.stubbedRoutes == [Self.reviewPOST: "/restaurants/:restaurantID/reviews"])
    }

    @Test func replacingAnUnknownRouteIsAnError() throws {
        var set = try routes()
        #expect(throws: RoutingError.self) {
            try set.replacePathPattern(of: .class(entity: "Reveiw", method: .post), with: "/422")
        }
        let error = RoutingError.noRoute(.class(entity: "Reveiw", method: .post), suggestions: [])
        #expect(error.description == "The route set has no class route Reveiw POST.")
    }

    @Test func routerBuildsURLsFromObjectsAndParameters() throws {
        let router = Router(baseURL: URL(string: "http://127.0.0.1:8080/")!, routes: try routes())
        let route = try router.route(for: Self.reviewPOST)
        let path = try router.path(for: route, values: { $0 == "restaurantID" ? "12345" : nil })
        #expect(router.url(forPath: path).absoluteString == "http://127.0.0.1:8080/restaurants/12345/reviews")
        #expect(
            try router.url(forRouteNamed: "restaurants").absoluteString == "http://127.0.0.1:8080/restaurants"
        )
        #expect(
            router.url(forPath: "/articles", query: ["q": "a b", "page": "2"]).absoluteString
                == "http://127.0.0.1:8080/articles?page=2&q=a%20b"
        )
    }
}
