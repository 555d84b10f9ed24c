public import Scenarios
public import Steps

/// The example app's own steps, registered beside the built-in ones and used the same way.
extension RestaurantReviews {
    /// The app as scenario-run and `ScenarioTesting` drive it, with a leak check of its drafts.
    public static var appUnderTest: AppUnderTest {
        AppUnderTest(makeFactory: { makeTestFactory() }, steps: steps, leakChecks: [draftsLeft])
    }

    public static var steps: [StepDefinition] {
        [submitReview, saveDraft, loadRestaurants, expectComposer, expectRestaurantList]
    }

    /// Drafts a scenario saved and tear-down did not remove (`1 review draft still saved`).
    static let draftsLeft = LeakCheck("review drafts") { _ in
        let count = Drafts.all.count
        return count == 0 ? [] : ["\(count) review draft\(count == 1 ? "" : "s") still saved"]
    }

    static let draftTitle = StepArgument<String>.required("title", .string, "The draft's title")

    /// `save draft: TITLE` — the composer keeps a draft review for later.
    static let saveDraft = StepDefinition(
        "save draft",
        summary: "Saves a review draft",
        forms: [.value(draftTitle)],
        example: "save draft: Half-written"
    ) { input, _ in
        Step(input.sourceDescription) { context in
            Drafts.save(title: try input[draftTitle].resolve(in: context))
            return .success
        }
    }

    static let restaurant = StepArgument<Int>.required("restaurant", .integer, "The restaurant's ID")
    static let title = StepArgument<String>.required("title", .string, "The review's title")
    static let body = StepArgument<String?>.optional("body", .string, "The review's text")
    static let rating = StepArgument<Int?>.optional("rating", .integer(in: 1...5), "Stars, 1 to 5")

    /// `submit review: {restaurant, title, body, rating}` — types into the composer and taps Send.
    static let submitReview = StepDefinition(
        "submit review",
        summary: "Posts a review through the review composer",
        forms: [.mapping(restaurant.any, title.any, body.any, rating.any)],
        example: "submit review: { restaurant: \"${place.restaurantID}\", title: Lovely, rating: 5 }"
    ) { input, _ in
        Step(input.sourceDescription) { context in
            let restaurantID = try input[restaurant].resolve(in: context)
            let title = try input[title].resolve(in: context)
            let body = try input[body].resolve(in: context)
            let rating = try input[rating].resolve(in: context)
            let composer = Screens.composer
            try context.world.launch(context) {
                await composer.submit(restaurantID: restaurantID, title: title, body: body, rating: rating)
            }
            return .success
        }
    }

    /// `load restaurants` — opens the restaurant list.
    static let loadRestaurants = StepDefinition("load restaurants", summary: "Opens the restaurant list") { _, _ in
        Step("load restaurants") { context in
            let list = Screens.restaurantList
            try context.world.launch(context) { await list.load() }
            return .success
        }
    }

    static let composerStatus = StepArgument<String?>.optional(
        "status",
        .choice(["idle", "sending", "sent", "failed", "offline"]),
        "What the composer shows"
    )
    static let composerMessage = StepArgument<String?>.optional("message", .string, "Text in the composer's message")

    /// `expect composer: {status, message}` — waits until the composer shows that.
    static let expectComposer = StepDefinition(
        "expect composer",
        summary: "Passes when the review composer shows that status and message",
        forms: [.mapping(composerStatus.any, composerMessage.any)],
        example: "expect composer: { status: failed, message: Invalid object. }"
    ) { input, _ in
        Step(input.sourceDescription) { context in
            let shown = Screens.composer.status
            if let status = try input[composerStatus].resolve(in: context), shown.name != status {
                return .wait("The composer shows '\(shown)', expected '\(status)'")
            }
            if let expected = try input[composerMessage].resolve(in: context) {
                guard let text = shown.message, text.contains(expected) else {
                    return .wait("The composer's message is '\(shown.message ?? "")', expected '\(expected)'")
                }
            }
            return .success
        }.givingUpWhenSettled()
    }

    static let listCount = StepArgument<Int?>.optional("count", .integer(in: 0...1_000_000), "How many rows")
    static let listBanner = StepArgument<String?>.optional("banner", .string, "The banner's text")

    /// `expect restaurant list: {count, banner}` — waits until the list shows that.
    static let expectRestaurantList = StepDefinition(
        "expect restaurant list",
        summary: "Passes when the restaurant list shows that many rows and that banner",
        forms: [.mapping(listCount.any, listBanner.any)],
        example: "expect restaurant list: { count: 20, banner: Offline }"
    ) { input, _ in
        Step(input.sourceDescription) { context in
            let list = Screens.restaurantList
            guard list.isLoaded else { return .wait("The restaurant list has not loaded") }
            if let count = try input[listCount].resolve(in: context), list.rows.count != count {
                return .wait(
                    "The restaurant list shows \(list.rows.count) row(s)" + (list.errorMessage.map { " (\($0))" } ?? "")
                        + ", expected \(count)"
                )
            }
            if let banner = try input[listBanner].resolve(in: context), list.banner != banner {
                return .wait("The restaurant list's banner is '\(list.banner ?? "none")', expected '\(banner)'")
            }
            return .success
        }.givingUpWhenSettled()
    }
}
