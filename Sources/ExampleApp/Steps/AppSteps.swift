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

    /// `save draft: TITLE` — the composer keeps a draft review for later.
    static let saveDraft = StepDefinition(name: "save draft", summary: "Saves a review draft", usage: ["TITLE"]) {
        (arguments: StepArguments, _: StepBuildContext) throws(StepArgumentError) -> Step in
        let title = try arguments.scalar()
        return Step("save draft '\(title)'") { context in
            Drafts.save(title: try context.interpolate(title))
            return .success
        }
    }

    /// `submit review: {restaurant, title, body, rating}` — types into the composer and taps Send.
    static let submitReview = StepDefinition(
        name: "submit review",
        summary: "Posts a review through the review composer",
        usage: ["{restaurant, title, body, rating}"]
    ) { (arguments: StepArguments, _: StepBuildContext) throws(StepArgumentError) -> Step in
        _ = try arguments.oneOf([.mapping(required: ["restaurant", "title"], optional: ["body", "rating"])])
        let restaurant = try arguments.string("restaurant")
        let title = try arguments.string("title")
        let body = try arguments.optionalString("body")
        let rating = try arguments.optionalInt("rating")
        if let node = arguments["rating"], let rating, !(1...5).contains(rating) {
            throw StepArgumentError("A rating is from 1 to 5, not \(rating).", at: node.location)
        }
        return Step("submit review '\(title)' for restaurant \(restaurant)") { context in
            let text = try context.interpolate(restaurant)
            guard let restaurantID = Int(text) else { return .failure("Restaurant '\(text)' is not a restaurant ID.") }
            let title = try context.interpolate(title)
            let body = try body.map { try context.interpolate($0) }
            let composer = Screens.composer
            try context.world.launch(context) {
                await composer.submit(restaurantID: restaurantID, title: title, body: body, rating: rating)
            }
            return .success
        }
    }

    /// `load restaurants` — opens the restaurant list.
    static let loadRestaurants = StepDefinition(name: "load restaurants", summary: "Opens the restaurant list") {
        (arguments: StepArguments, _: StepBuildContext) throws(StepArgumentError) -> Step in
        guard arguments.isEmpty else {
            throw StepArgumentError("Step 'load restaurants' takes no arguments.", at: arguments.location)
        }
        return Step("load restaurants") { context in
            let list = Screens.restaurantList
            try context.world.launch(context) { await list.load() }
            return .success
        }
    }

    /// `expect composer: {status, message}` — waits until the composer shows that.
    static let expectComposer = StepDefinition(
        name: "expect composer",
        summary: "Passes when the review composer shows that status and message",
        usage: ["{status, message}"]
    ) { (arguments: StepArguments, _: StepBuildContext) throws(StepArgumentError) -> Step in
        _ = try arguments.oneOf([.mapping(required: [], optional: ["status", "message"])])
        let status = try arguments.optionalString("status")
        let names = ["idle", "sending", "sent", "failed", "offline"]
        if let status, let node = arguments["status"], !names.contains(status) {
            throw StepArgumentError(
                "Unknown composer status '\(status)'. The composer shows "
                    + names.map { "'\($0)'" }.joined(separator: ", ") + ".",
                at: node.location
            )
        }
        let message = try arguments.optionalString("message")
        return Step("expect composer" + (status.map { " \($0)" } ?? "") + (message.map { " '\($0)'" } ?? "")) {
            context in
            let shown = Screens.composer.status
            if let status, shown.name != status {
                return .wait("The composer shows '\(shown)', expected '\(status)'")
            }
            if let message {
                let expected = try context.interpolate(message)
                guard let text = shown.message, text.contains(expected) else {
                    return .wait(
                        "The composer's message is '\(shown.message ?? "")', expected '\(expected)'"
                    )
                }
            }
            return .success
        }.givingUpWhenSettled()
    }

    /// `expect restaurant list: {count, banner}` — waits until the list shows that.
    static let expectRestaurantList = StepDefinition(
        name: "expect restaurant list",
        summary: "Passes when the restaurant list shows that many rows and that banner",
        usage: ["{count, banner}"]
    ) { (arguments: StepArguments, _: StepBuildContext) throws(StepArgumentError) -> Step in
        _ = try arguments.oneOf([.mapping(required: [], optional: ["count", "banner"])])
        let count = try arguments.optionalInt("count")
        let banner = try arguments.optionalString("banner")
        return Step(
            "expect restaurant list" + (count.map { " count \($0)" } ?? "") + (banner.map { " banner '\($0)'" } ?? "")
        ) { context in
            let list = Screens.restaurantList
            guard list.isLoaded else {
                return .wait("The restaurant list has not loaded")
            }
            if let count, list.rows.count != count {
                return .wait(
                    "The restaurant list shows \(list.rows.count) row(s)" + (list.errorMessage.map { " (\($0))" } ?? "")
                        + ", expected \(count)"
                )
            }
            if let banner, list.banner != banner {
                return .wait(
                    "The restaurant list's banner is '\(list.banner ?? "none")', expected '\(banner)'"
                )
            }
            return .success
        }.givingUpWhenSettled()
    }
}
