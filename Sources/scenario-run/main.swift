import ExampleApp
import ScenarioRunCLI

// The example app's scenario-run: the whole command line, driving RestaurantReviews.
ScenarioRun.run(app: RestaurantReviews.appUnderTest)
