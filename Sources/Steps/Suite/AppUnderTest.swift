public import ObjectManager
public import Scenarios

/// The app under test, as the runner needs to know it: how to make its test factory (entity model,
/// the configuration that adds its routes and mappings to a new object manager, its named factories
/// and set-up hooks), its own steps, and checks of its own shared state made after every scenario's
/// tear-down. Routes are read from the configuration itself (`TestFactory.configuredRoutes()`), so
/// they are declared once.
///
/// ```swift
/// extension Library {
///     public static var appUnderTest: AppUnderTest {
///         AppUnderTest(
///             makeFactory: { makeTestFactory() },
///             steps: [borrowBook, expectLoanList],
///             leakChecks: [
///                 LeakCheck("reading list") { _ in
///                     ReadingList.shared.isEmpty ? [] : ["\(ReadingList.shared.count) books still on the reading list"]
///                 }
///             ],
///             idlingResources: [Library.syncWork]   // a CountingIdlingResource the app raises around its sync
///         )
///     }
/// }
/// ```
public struct AppUnderTest: Sendable {
    /// Makes the app's test factory; called once per run (and once per `--jobs` worker).
    public var makeFactory: @Sendable () -> TestFactory
    /// The app's own steps, used in scenario files exactly like the built-in ones. A name that a
    /// built-in step already has is an error when the run starts.
    public var steps: [StepDefinition]
    /// Checks of the app's own shared state (singletons, app caches, timers), made by `check for leaks`
    /// after every scenario's tear-down, after the built-in checks of the object manager and store.
    public var leakChecks: [LeakCheck]
    /// The work the app starts on its own (notification handlers, debounces, timers, sync loops):
    /// before each attempt of an expectation the runner asks every resource whether it is idle, and a
    /// failing expectation gives up before its timeout only while all are (and nothing else runs or
    /// changes for the settle time). The live runner shows the busy ones a step waits on.
    public var idlingResources: [any IdlingResource]

    /// Makes the description of the app under test; only `makeFactory` is required. See the example above.
    public init(
        makeFactory: @escaping @Sendable () -> TestFactory,
        steps: [StepDefinition] = [],
        leakChecks: [LeakCheck] = [],
        idlingResources: [any IdlingResource] = []
    ) {
        self.makeFactory = makeFactory
        self.steps = steps
        self.leakChecks = leakChecks
        self.idlingResources = idlingResources
    }
}
