public import ObjectManager
public import Scenarios

/// What the runner needs to know about the app under test: how to make its test factory (model,
/// routes and mappings, factories, set-up hooks), its routes (for load-time checks) and its own steps.
///
/// ```swift
/// let app = AppUnderTest(makeFactory: { RestaurantReviews.makeTestFactory() },
///                        routes: RestaurantReviews.routes, steps: RestaurantReviews.steps)
/// ```
public struct AppUnderTest: Sendable {
    public var makeFactory: @Sendable () -> TestFactory
    public var routes: RouteSet
    public var steps: [StepDefinition]

    public init(makeFactory: @escaping @Sendable () -> TestFactory, routes: RouteSet, steps: [StepDefinition] = []) {
        self.makeFactory = makeFactory
        self.routes = routes
        self.steps = steps
    }
}
