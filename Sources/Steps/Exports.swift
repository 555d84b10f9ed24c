// One import gives an app author everything needed to describe an app and its steps: the object
// manager (model, routes, mappings, factories, idling resources), the step language (`StepDefinition`,
// `StepArgument`, `Step`, `StepResult`, `ScenarioContext`) and the app description (`AppUnderTest`).
@_exported public import ObjectManager
@_exported public import Scenarios
