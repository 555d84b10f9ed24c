package import Scenarios

/// The definitions of the default set-up and tear-down steps, whose bodies follow.
extension BuiltInSteps {
    static let setUpTestEnvironment = StepDefinition(
        "set up the test environment",
        summary: "Fresh shared object manager, store, cache and journal (the default set-up)"
    ) { _, _ in .setUpTestEnvironment() }

    static let tearDownTestEnvironment = StepDefinition(
        "tear down the test environment",
        summary: "Cancel requests, empty the store and cache, drop shared instances (the default tear-down)"
    ) { _, _ in .tearDownTestEnvironment() }
}

extension Step {
    /// The default set-up (KIF setDefaultStepsToSetUp): a fresh shared object manager on the stub
    /// server with the app's routes and mappings, an empty in-memory default store, an empty cache,
    /// live reachability, the queue resumed, factories reset, the app's own reset, an empty journal, and
    /// the stub server's sequences, states and scenario stubs reset.
    package static func setUpTestEnvironment() -> Step {
        Step("set up the test environment") { context in
            let environment = try context.testEnvironment
            if let previous = context[ScenarioWorld.Key.self] { await previous.close() }
            guard let baseURL = environment.server.baseURL else {
                return .failure("The stub server is not running.")
            }
            environment.server.journal.clear()
            // Sequences, states, the scenario's own stubs and unmatched requests start over (SPEC §15).
            environment.server.session.reset()
            let manager = try await environment.factory.setUp(baseURL: baseURL)
            // A request is bounded like the step that makes it (`--timeout`), whatever the app configured.
            manager.client.timeout = context.stepTimeout
            context[ScenarioWorld.Key.self] = ScenarioWorld(
                manager: manager,
                environment: environment,
                context: context
            )
            context[SharedStateLeaks.ManagerKey.self] = manager
            return .success
        }.runningAppCodeItself()
    }

    /// The default tear-down: remove the scenario's own stubs, cancel every queued or running request,
    /// delete every object of every entity, clear the cache, drop the shared instances.
    package static func tearDownTestEnvironment() -> Step {
        Step("tear down the test environment") { context in
            if let world = context[ScenarioWorld.Key.self] {
                await world.close()
                context[ScenarioWorld.Key.self] = nil
            }
            let environment = try context.testEnvironment
            environment.server.session.removeStubs()
            try await environment.factory.tearDown()
            return .success
        }.runningAppCodeItself()
    }
}
